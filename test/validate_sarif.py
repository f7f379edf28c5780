#!/usr/bin/env python3
"""validate_sarif.py [--schema SCHEMA] [--min-results N] SARIF...

Validates SARIF logs against the SARIF 2.1.0 JSON schema shipped in
test/Inputs/sarif/ and against what GitHub code scanning requires beyond the
schema (docs: "SARIF support for code scanning"): one run per tool with a
driver name, a rule for every result's ruleId with non-empty descriptions and
help text, at most 1024 characters per description, ruleIndex pointing at the
rule, at least one location with a relative URI or a file URI, 1-based
regions, a partialFingerprints.primaryLocationLineHash, and fixes with
non-empty artifactChanges. And what libtorch-tidy promises beyond that: every
rule has a name (the id in CamelCase) and a helpUri, every fullDescription
ends a sentence, and every result has our own fingerprint (libtorchTidy/v1).
Prints one line per log; exits 1 on any problem.
"""
import argparse
import json
import os
import re
import sys

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCHEMA = os.path.join(HERE, "Inputs", "sarif", "sarif-schema-2.1.0.json")


def github_problems(log):
    problems = []
    if log.get("version") != "2.1.0" or not log.get("$schema"):
        problems.append("version must be 2.1.0 and $schema non-empty")
    for r, run in enumerate(log.get("runs") or []):
        driver = run.get("tool", {}).get("driver", {})
        if not driver.get("name"):
            problems.append("runs[%d]: tool.driver.name is empty" % r)
        rules = driver.get("rules", [])
        ids = [rule.get("id") for rule in rules]
        if len(ids) != len(set(ids)):
            problems.append("runs[%d]: repeated rule ids" % r)
        for rule in rules:
            for member in ("shortDescription", "fullDescription", "help"):
                text = rule.get(member, {}).get("text", "")
                if not text:
                    problems.append("rule %s: %s.text is empty" % (rule.get("id"), member))
                if member != "help" and len(text) > 1024:
                    problems.append("rule %s: %s longer than 1024" % (rule.get("id"), member))
                if member != "help" and text.rstrip().endswith((":", ",", ";")):
                    problems.append("rule %s: %s ends mid-sentence: %r"
                                    % (rule.get("id"), member, text[-40:]))
            full = rule.get("fullDescription", {}).get("text", "")
            if not re.search(r"[.!?][)\"'`]*$", full):
                problems.append("rule %s: fullDescription does not end a sentence: %r"
                                % (rule.get("id"), full[-40:]))
            name = "".join(word[:1].upper() + word[1:]
                           for word in re.split(r"[^A-Za-z0-9]+", rule.get("id", "")))
            if rule.get("name") != name:
                problems.append("rule %s: name %r, expected %r"
                                % (rule.get("id"), rule.get("name"), name))
            if not re.match(r"https://\S+$", rule.get("helpUri", "")):
                problems.append("rule %s: no https helpUri" % rule.get("id"))
        for i, result in enumerate(run.get("results") or []):
            where = "runs[%d].results[%d]" % (r, i)
            rule_id = result.get("ruleId")
            if rule_id not in ids:
                problems.append("%s: ruleId %r has no rule" % (where, rule_id))
            elif result.get("ruleIndex") != ids.index(rule_id):
                problems.append("%s: ruleIndex does not point at %s" % (where, rule_id))
            if not result.get("message", {}).get("text"):
                problems.append("%s: message.text is empty" % where)
            locations = result.get("locations") or []
            if not locations:
                problems.append("%s: no location" % where)
            for location in locations[:1]:
                physical = location.get("physicalLocation", {})
                uri = physical.get("artifactLocation", {}).get("uri", "")
                base = physical.get("artifactLocation", {}).get("uriBaseId")
                if not uri or (not base and not uri.startswith("file://")):
                    problems.append("%s: uri %r is neither relative to a base nor a file URI"
                                    % (where, uri))
                region = physical.get("region", {})
                if region.get("startLine", 0) < 1 or region.get("startColumn", 0) < 1:
                    problems.append("%s: region is not 1-based" % where)
                if (region.get("endLine", 0), region.get("endColumn", 0)) <= (
                        region.get("startLine", 0), region.get("startColumn", 0)):
                    problems.append("%s: region ends before it starts" % where)
            fingerprints = result.get("partialFingerprints", {})
            if not re.match(r"[0-9a-f]+:[1-9][0-9]*$",
                            fingerprints.get("primaryLocationLineHash", "")):
                problems.append("%s: no primaryLocationLineHash" % where)
            if not re.match(r"[0-9a-f]{16}:[1-9][0-9]*$", fingerprints.get("libtorchTidy/v1", "")):
                problems.append("%s: no libtorchTidy/v1 fingerprint" % where)
            for fix in result.get("fixes", []):
                if not fix.get("artifactChanges"):
                    problems.append("%s: a fix without artifactChanges" % where)
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", default=DEFAULT_SCHEMA)
    parser.add_argument("--min-results", type=int, default=0,
                        help="fail unless each log has at least this many results")
    parser.add_argument("logs", nargs="+")
    args = parser.parse_args()
    with open(args.schema) as f:
        validator = jsonschema.Draft4Validator(json.load(f))
    failed = False
    for path in args.logs:
        with open(path) as f:
            log = json.load(f)
        problems = ["%s: %s" % ("/".join(str(p) for p in error.absolute_path) or "(root)",
                                error.message)
                    for error in validator.iter_errors(log)]
        problems += github_problems(log)
        results = sum(len(run.get("results") or []) for run in log.get("runs") or [])
        if results < args.min_results:
            problems.append("%d results, expected at least %d" % (results, args.min_results))
        if problems:
            failed = True
            for problem in problems:
                print("%s: invalid: %s" % (path, problem))
        else:
            print("%s: valid SARIF 2.1.0, %d results" % (path, results))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
