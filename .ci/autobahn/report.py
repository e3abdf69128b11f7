"""Summarises Autobahn|Testsuite fuzzingclient reports written by .ci/autobahn/run.sh.

usage: report.py OUTDIR ALLOWED_FILE LOOP...
Prints, per loop, a table of case group -> behaviour counts and every non-OK case with the
reason from its JSON report. Exits 1 when a case outside OK / NON-STRICT / INFORMATIONAL fails
and is not in ALLOWED_FILE (lines 'case|reason').
"""
import json
import os
import sys

PASSING = ("OK", "NON-STRICT", "INFORMATIONAL")
COLUMNS = ("OK", "NON-STRICT", "INFORMATIONAL", "FAILED", "UNIMPLEMENTED", "OTHER")


def case_key(case_id):
    return tuple(int(part) for part in case_id.split("."))


def main():
    outdir, allowed_file, loops = sys.argv[1], sys.argv[2], sys.argv[3:]
    allowed = {}
    with open(allowed_file) as f:
        for line in f:
            if "|" in line:
                case, reason = line.rstrip("\n").split("|", 1)
                allowed[case.strip()] = reason.strip()
    failures = []
    for loop in loops:
        reports = os.path.join(outdir, loop, "reports")
        with open(os.path.join(reports, "index.json")) as f:
            index = json.load(f)
        seconds = open(os.path.join(outdir, loop, "seconds")).read().strip()
        for agent, cases in index.items():
            groups = {}
            non_ok = []
            for case_id in sorted(cases, key=case_key):
                entry = cases[case_id]
                behaviour = entry.get("behavior", "?")
                column = behaviour if behaviour in COLUMNS else "OTHER"
                group = case_id.split(".")[0]
                groups.setdefault(group, dict.fromkeys(COLUMNS, 0))[column] += 1
                close = entry.get("behaviorClose", "?")
                if behaviour != "OK" or close not in ("OK", "INFORMATIONAL"):
                    detail = {}
                    try:
                        with open(os.path.join(reports, entry["reportfile"])) as f:
                            detail = json.load(f)
                    except (OSError, KeyError, ValueError):
                        pass
                    non_ok.append((case_id, behaviour, close, entry.get("remoteCloseCode"),
                                   detail.get("description", ""), detail.get("result", ""),
                                   detail.get("resultClose", "")))
            total = sum(sum(counts.values()) for counts in groups.values())
            print("== %s (%s): %d cases in %ss" % (loop, agent, total, seconds))
            header = "%-6s" % "group" + "".join("%15s" % c for c in COLUMNS)
            print(header)
            sums = dict.fromkeys(COLUMNS, 0)
            for group in sorted(groups, key=int):
                counts = groups[group]
                print("%-6s" % group + "".join("%15d" % counts[c] for c in COLUMNS))
                for c in COLUMNS:
                    sums[c] += counts[c]
            print("%-6s" % "all" + "".join("%15d" % sums[c] for c in COLUMNS))
            if non_ok:
                print("non-OK cases (behaviour / close behaviour / server close code):")
            for case_id, behaviour, close, code, description, result, result_close in non_ok:
                verdict = ""
                if behaviour not in PASSING:
                    if case_id in allowed:
                        verdict = "  [allowed: %s]" % allowed[case_id]
                    else:
                        verdict = "  [NOT ALLOWED]"
                        failures.append((loop, case_id, behaviour))
                print("  %-9s %s / %s / %s%s" % (case_id, behaviour, close, code, verdict))
                if description:
                    print("            case:   %s" % " ".join(description.split())[:300])
                if result:
                    print("            reason: %s" % " ".join(result.split())[:300])
                if result_close and close != "OK":
                    print("            close:  %s" % " ".join(result_close.split())[:300])
            print()
    if failures:
        print("FAILED: %d case(s) outside the allowed set: %s" % (
            len(failures), ", ".join("%s %s (%s)" % f for f in failures)))
        return 1
    print("PASSED: every case is OK, NON-STRICT or INFORMATIONAL, or allowed (%s)" % (
        ", ".join(sorted(allowed)) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
