#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""validate-json.py SCHEMA FILE... - check JSON files against a draft-07 schema.

Prints each file's first errors; exit 0 when every file is valid, 1 when
one is not, 2 when python3-jsonschema (Debian) is missing.
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed", file=sys.stderr)
    sys.exit(2)


def main(argv):
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    bad = 0
    for path in argv[2:]:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        for e in errors[:5]:
            where = "/".join(str(p) for p in e.path) or "(top)"
            print("%s: %s: %s" % (path, where, e.message))
        bad |= bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
