"""What every figure script shares: the command line (DATA_DIR NAME) and
writing NAME.png and NAME.pdf into DATA_DIR."""
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")


def save(fig, data_dir: Path, name: str) -> None:
    fig.tight_layout()
    for suffix in ("png", "pdf"):
        fig.savefig(data_dir / f"{name}.{suffix}", dpi=130)


def run(main, doc: str) -> None:
    """Calls main(DATA_DIR, NAME) from the command line, or prints doc."""
    if len(sys.argv) != 3:
        sys.exit(doc)
    main(Path(sys.argv[1]), sys.argv[2])
