# The report (paper_figures/report.py OUT) once the merge, the figures, the
# animations and the benchmarks are done, then the verdict: the workflow's exit status.

FIGURE_STATUS = expand(f"{OUT}/status/figures/{{figure}}.json", figure=S.figures)
ANIMATION_STATUS = expand(f"{OUT}/status/animations/{{animation}}{{step}}.json", animation=S.animations,
                          step=[".run", ""])
BENCHMARK_JSON = expand(f"{OUT}/benchmarks/{{program}}.json", program=S.benchmarks)
MERGED = [f"{OUT}/validation.json", f"{OUT}/timings.json", f"{OUT}/provenance.json"] if S.suites else []
REPORT = [f"{OUT}/report.md", f"{OUT}/report.html"] if S.report and S.suites else []


# Without suites (a sweep-only run) there is no validation.json to report on.
if REPORT:

    rule report:
        input:
            MERGED,
            FIGURE_STATUS,
            ANIMATION_STATUS,
            BENCHMARK_JSON,
            script=str(ROOT / "paper_figures" / "report.py"),
        output: REPORT
        log: f"{OUT}/logs/report.log"
        message: f"report {OUT}/report.html"
        shell: "{PYTHON:q} {input.script:q} {OUT:q} > {log:q} 2>&1 || {{ cat {log:q} >&2; exit 1; }}"


rule verdict:
    input:
        REPORT,
        MERGED,
        FIGURE_STATUS,
        ANIMATION_STATUS,
        BENCHMARK_JSON,
        expand(f"{OUT}/sweeps/{{sweep}}/{{sweep}}.{{kind}}", sweep=S.sweeps, kind=["csv", "png"]),
        script=f"{SCRIPTS}/verdict.py",
    output: f"{OUT}/verdict.json"
    params:
        validation=["--validation", f"{OUT}/validation.json"] if S.suites else [],
        figures=FIGURE_STATUS,
        animations=ANIMATION_STATUS,
    log: f"{OUT}/logs/verdict.log"
    message: "verdict: every suite passed, every figure was drawn and every animation made?"
    # Fails (and so does snakemake) naming the failed suites and figures; the
    # report above is written first.
    shell:
        "{PYTHON:q} {input.script:q} {params.validation:q} --figures {params.figures:q}"
        " --animations {params.animations:q} --out {output:q}"
        " 2>&1 | tee {log:q}"
