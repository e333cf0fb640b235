#!/usr/bin/env python3
"""Checks JSON documents against config/linkhost.schema.json as an editor's validator does: the jsonschema package,
with the draft the schema names (2020-12). One document per line on standard input; one answer per line on
standard output, in order: "ok", or "invalid: PATH: MESSAGE" for the most telling error (jsonschema's best_match). SchemaNullTests asks it whether
the schema accepts what the loader accepts.

    scripts/schema-check.py [SCHEMA] < documents.jsonl
"""
import json
import pathlib
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("schema-check: the Python package jsonschema is missing (make test-deps installs it)")

schema_path = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent / "config/linkhost.schema.json")
schema = json.loads(schema_path.read_text())
validator_class = jsonschema.validators.validator_for(schema)
validator_class.check_schema(schema)
validator = validator_class(schema)
for line in sys.stdin:
    if not line.strip():
        continue
    error = jsonschema.exceptions.best_match(validator.iter_errors(json.loads(line)))
    if error is None:
        print("ok")
    else:
        where = ".".join(str(part) for part in error.absolute_path) or "(the document)"
        print(f"invalid: {where}: {error.message}")
