"""Figure hertz-convergence: the quasi-rigid model (Boussinesq kernel) against Hertz.

Left: the pressure at every node of the finest grid (a / h = 8, rigid plane)
against its distance from the first contact, both over Hertz's a and p0,
beside Hertz's ellipse p / p0 = sqrt(1 - r^2 / a^2). Right: the relative
errors in contact radius, peak pressure and approach against the nodes per
contact radius, for the rigid and the elastic plane, with a slope-2 guide.

Usage: hertz_convergence.py DATA_DIR NAME  (reads profile.csv and
convergence.csv written by `contactref figures`; writes NAME.png and NAME.pdf).
"""
from pathlib import Path

import figure_io
import matplotlib.pyplot as plt
import numpy as np


def main(data_dir: Path, name: str) -> None:
    profile = np.genfromtxt(data_dir / "profile.csv", delimiter=",", names=True)
    conv = np.genfromtxt(data_dir / "convergence.csv", delimiter=",", names=True, dtype=None, encoding="utf-8")

    fig, (ax_p, ax_c) = plt.subplots(1, 2, figsize=(11, 4.2))
    r = np.linspace(0, 1, 200)
    ax_p.plot(r, np.sqrt(1 - r**2), "k-", lw=2, alpha=0.5, label="Hertz")
    ax_p.plot(profile["r_over_a"], profile["p_over_p0"], ".", ms=3, label="quasi-rigid nodes (a/h = 8)")
    ax_p.set_xlim(0, 1.6)
    ax_p.set_xlabel("r / a (Hertz)")
    ax_p.set_ylabel("p / p0 (Hertz)")
    ax_p.set_title("pressure profile, rigid plane")
    ax_p.legend(fontsize=8)

    for case, marker in (("rigid", "o"), ("elastic", "s")):
        rows = conv[conv["case"] == case]
        n = rows["per_radius"]
        for field, style in (("radius_error", "-"), ("peak_error", "--"), ("approach_error", ":")):
            ax_c.loglog(n, np.abs(rows[field]), marker + style, label=f"{case}: {field.replace('_', ' ')}")
    n = conv["per_radius"][conv["case"] == "rigid"]
    first = np.abs(conv["approach_error"][0])
    ax_c.loglog(n, first * (n / n[0]) ** -2.0, "k-", alpha=0.3, label="slope -2")
    ax_c.set_xlabel("nodes per contact radius, a / h")
    ax_c.set_ylabel("|relative error|")
    ax_c.set_title("convergence against Hertz")
    ax_c.grid(True, which="both", alpha=0.3)
    ax_c.legend(fontsize=6, ncol=2)

    figure_io.save(fig, data_dir, name)


if __name__ == "__main__":
    figure_io.run(main, __doc__)
