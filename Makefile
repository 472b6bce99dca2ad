# The two commands of the README. Everything else is in scripts/ and the crates.

.PHONY: demo test

## Build everything (client bundle + release hub) and run the hub with demo data and simulated mats.
demo:
	bash scripts/demo.sh

## Run every test: Rust (unit, scenario, loopback), client unit tests, browser end-to-end.
test:
	bash scripts/test-all.sh
