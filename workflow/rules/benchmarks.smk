# One job per Google Benchmark program: OUT/benchmarks/PROGRAM.json.

rule benchmark:
    input: program=str(S.build / "benchmarks" / "{program}")
    output: f"{OUT}/benchmarks/{{program}}.json"
    params: extra=S.benchmark_args
    log: f"{OUT}/logs/benchmarks/{{program}}.log"
    message: "benchmark {wildcards.program}"
    # Every core Snakemake has: the program runs alone, its timings undisturbed.
    threads: EXCLUSIVE_THREADS
    resources: slurm_extra="--exclusive"
    shell:
        "{PYTHON:q} {RUN_STEP:q} --log {log:q} --requires {output:q}"
        " -- {input.program:q} --benchmark_out={output:q} --benchmark_out_format=json {params.extra:q}"
