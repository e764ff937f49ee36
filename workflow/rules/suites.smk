# One job per suite: `contactref validate NAME [--quick] --out OUT/suites/NAME`,
# then one merge into OUT/validation.json, timings.json and provenance.json,
# as one `contactref validate SUITES --out OUT` would write them.

for rule_name, suites, rank in ranked("suite", S.suites):

    rule:
        name: rule_name
        input: contactref=CONTACTREF
        wildcard_constraints: suite=alternatives(suites)
        priority: rank
        output:
            validation=f"{OUT}/suites/{{suite}}/validation.json",
            timings=f"{OUT}/suites/{{suite}}/timings.json",
            provenance=f"{OUT}/suites/{{suite}}/provenance.json",
            status=f"{OUT}/status/suites/{{suite}}.json",
        params:
            quick="--quick" if S.quick else "",
            dir=lambda w: f"{OUT}/suites/{w.suite}",
        log: f"{OUT}/logs/suites/{{suite}}.log"
        message: "suite {wildcards.suite}" + (" (quick)" if S.quick else "")
        # One thread, told to contactref too (its oneTBB loops use every core
        # otherwise), so that -j N runs N jobs on N cores.
        threads: 1
        # Exit 1 is a failed suite: its files are written and the report shows it.
        shell:
            "CONTACTREF_THREADS={threads} {PYTHON:q} {RUN_STEP:q} --status {output.status:q} --log {log:q}"
            " --allow-exit 1 --requires {output.validation:q}"
            " -- {input.contactref:q} validate {wildcards.suite} {params.quick} --out {params.dir:q}"


def merge_command():
    """provenance.json's command: the validate run the merge stands for, and how it ran."""
    quick = " --quick" if S.quick else ""
    return (f"contactref validate {' '.join(S.suites)}{quick} --out {OUT} (by the Snakemake workflow "
            f"workflow/Snakefile: one job per suite, contactref validate SUITE{quick} --out {OUT}/suites/SUITE, "
            f"merged by workflow/scripts/merge_suites.py)")


rule merge_suites:
    input:
        expand(f"{OUT}/suites/{{suite}}/{{file}}.json", suite=S.suites,
               file=["validation", "timings", "provenance"]),
        script=f"{SCRIPTS}/merge_suites.py",
    output:
        validation=f"{OUT}/validation.json",
        timings=f"{OUT}/timings.json",
        provenance=f"{OUT}/provenance.json",
    params:
        dirs=[f"{OUT}/suites/{suite}" for suite in S.suites],
        command=merge_command(),
    log: f"{OUT}/logs/merge_suites.log"
    message: "merge {n} suites into {OUT}/validation.json".format(n=len(S.suites), OUT=OUT)
    shell:
        "{PYTHON:q} {input.script:q} {OUT:q} {params.dirs:q} --command {params.command:q} 2> {log:q}"
