"""An independent FHIR R4 validator for hub/tests/fhir.rs, written apart from the hub's code.

Each line on stdin is one JSON resource; each is parsed with the model of its resourceType from the
PyPI package fhir.resources 6.1.0 (FHIR 4.0.1, pydantic 1): cardinalities, data types, choice
types, required elements, the resources inside a Bundle, no element the model does not know.
Prints one JSON line per resource: {"resourceType", "id", "errors"}.
"""

import json
import sys

import fhir.resources
from fhir.resources import get_fhir_model_class

assert fhir.resources.__fhir_version__ == "4.0.1", fhir.resources.__fhir_version__

for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    errors = []
    resource_type = None
    identifier = None
    try:
        document = json.loads(line)
        resource_type = document.get("resourceType")
        identifier = document.get("id")
        get_fhir_model_class(resource_type).parse_obj(document)
    except Exception as error:  # every refusal is reported, none stops the run
        errors.append(f"{type(error).__name__}: {error}")
    print(json.dumps({"resourceType": resource_type, "id": identifier, "errors": errors}), flush=True)
