"""Figure rattleback-spin: Kry's rattleback (thesis App. B.1) in the
rattleback-reversal suite.

Left: the world spin rate omega_z against time for every case at 10 ms
(positive: counter-clockwise seen from above), with MuJoCo's run of the same
starts where mujoco.csv is present. Middle: the spin start at maximum steps
of 10, 50 and 100 ms (Kry & Pai's step-size statements). Right: the energy
split, E - E0 = the law's work + the plastic impulses' + what the integrator
lost, for the dissipative cases. Far right: every no-slip run against the
rolling-body oracle (maximal coordinates): |omega_z - omega_z,oracle| and
the derived tolerance tol(t) (dashed) over the compared rows.

Usage: rattleback_spin.py DATA_DIR NAME  (reads spin.csv and, if present,
mujoco.csv and oracle.csv written by `contactref figures`; writes NAME.png
and NAME.pdf).
"""
import csv
from collections import defaultdict
from pathlib import Path

import figure_io
import matplotlib.pyplot as plt
import numpy as np


def read_runs(path: Path, columns):
    runs = defaultdict(lambda: defaultdict(list))
    with open(path, newline="") as file:
        for row in csv.DictReader(file):
            for column in columns:
                runs[row["run"]][column].append(float(row[column]))
    return {name: {k: np.array(v) for k, v in data.items()} for name, data in runs.items()}


def main(data_dir: Path, name: str) -> None:
    runs = read_runs(data_dir / "spin.csv", ("t", "omega_z", "energy", "work", "impulse_work"))
    mujoco = read_runs(data_dir / "mujoco.csv", ("t", "omega_z", "energy")) if (data_dir / "mujoco.csv").exists() else {}
    oracle = (read_runs(data_dir / "oracle.csv", ("t", "difference", "tolerance"))
              if (data_dir / "oracle.csv").exists() else {})

    fig, (ax_s, ax_h, ax_e, ax_o) = plt.subplots(1, 4, figsize=(21, 4.6))
    for k, run in enumerate(r for r in runs if "h_max" not in r):
        ax_s.plot(runs[run]["t"], runs[run]["omega_z"], f"C{k}-", lw=0.7, label=run)
    for k, run in enumerate(mujoco):
        ax_s.plot(mujoco[run]["t"], mujoco[run]["omega_z"], f"C{k + 5}--", lw=0.7, label=run)
    ax_s.axhline(0, color="k", lw=0.5)
    ax_s.set_xlabel("time (s)")
    ax_s.set_ylabel(r"$\omega_z$ world (rad/s)")
    ax_s.set_title("spin rate (10 ms maximum step)")
    ax_s.legend(fontsize=7)
    ax_s.grid(True, alpha=0.3)

    for k, run in enumerate(r for r in runs if r == "spin[mu=0.3]" or (r.startswith("spin[mu=0.3,h_max"))):
        ax_h.plot(runs[run]["t"], runs[run]["omega_z"], f"C{k}-", lw=0.7, label=run)
    ax_h.axhline(0, color="k", lw=0.5)
    ax_h.set_xlabel("time (s)")
    ax_h.set_title("spin start, step sweep")
    ax_h.legend(fontsize=7)
    ax_h.grid(True, alpha=0.3)

    for k, run in enumerate(r for r in runs if "h_max" not in r and r != "spin[frictionless]"):
        data = runs[run]
        # E0 as given: the first row's energy before the start's plastic impulse (in its impulse_work)
        change = data["energy"] - (data["energy"][0] - data["impulse_work"][0])
        integrator = change - data["work"] - data["impulse_work"]
        ax_e.plot(data["t"], change, f"C{k}-", lw=0.8, label=f"{run}: E - E0")
        ax_e.plot(data["t"], data["work"], f"C{k}--", lw=0.8, label="law's work")
        ax_e.plot(data["t"], integrator, f"C{k}:", lw=1.0, label="integrator")
    ax_e.set_yscale("symlog", linthresh=1e-6)
    ax_e.set_xlabel("time (s)")
    ax_e.set_ylabel("J")
    ax_e.set_title("energy split")
    ax_e.legend(fontsize=6, ncol=2)
    ax_e.grid(True, alpha=0.3)

    for k, run in enumerate(oracle):
        data = oracle[run]
        ax_o.plot(data["t"], np.abs(data["difference"]), f"C{k}-", lw=0.6, label=run)
        ax_o.plot(data["t"], data["tolerance"], f"C{k}--", lw=0.8)
    ax_o.set_yscale("log")
    ax_o.set_xlabel("time (s)")
    ax_o.set_ylabel(r"$|\omega_z - \omega_{z,\mathrm{oracle}}|$ (rad/s)")
    ax_o.set_title("against the oracle (dashed: tolerance)")
    ax_o.legend(fontsize=6)
    ax_o.grid(True, alpha=0.3)

    figure_io.save(fig, data_dir, name)


if __name__ == "__main__":
    figure_io.run(main, __doc__)
