# The two commands of the README. Everything else is in scripts/ and the crates.

.PHONY: demo test release

## Build everything (client bundle + the hub, as the tests build it) and run the hub with demo data and simulated mats.
demo:
	bash scripts/demo.sh

## Run every test: Rust (unit, scenario, loopback), client unit tests, browser end-to-end.
test:
	bash scripts/test-all.sh

## The hub and client bundle a hospital runs (release build: 35-50 minutes the first time on 2 cores).
release:
	cd client && npm ci --no-audit --no-fund && npm run build
	cargo build --release -p hub
