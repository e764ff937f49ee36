"""Writes one point of a sweep: the scene with some of its fields set.

    sweep_scene.py SCENE --set '{"friction.mu": 0.2, ...}' --scene-out FILE --point-out FILE

Each key of --set is a JSON path of the scene (jsonpath.py) that must exist:
a misspelt path is an error naming it, never a new field the reader would
refuse later or, worse, ignore. The variant lives in another folder than
SCENE, so its relative file names (a loop surface's "mesh", a mesh's or a
point cloud's "file", which the scene reader resolves against the scene's
folder: validation/scenes/scene.hpp) are made absolute first.
--point-out gets {"scene": SCENE, "set": {...}} for the sweep's table.
"""
import argparse
import json
import sys
from pathlib import Path

import jsonpath

FILE_FIELDS = ("mesh", "file")        # validation/scenes/geometry.cpp: file_at(...)
GEOMETRY_KEYS = ("geometry", "surface")  # "surface" is geometry's former name


def absolute_files(scene: dict, folder: Path) -> None:
    for body in scene.get("bodies", []) if isinstance(scene.get("bodies"), list) else []:
        if not isinstance(body, dict):
            continue
        for key in GEOMETRY_KEYS:
            geometry = body.get(key)
            if not isinstance(geometry, dict):
                continue
            for name in FILE_FIELDS:
                value = geometry.get(name)
                if isinstance(value, str) and value and not Path(value).is_absolute():
                    geometry[name] = str((folder / value).resolve())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scene", type=Path)
    parser.add_argument("--set", required=True, help="JSON object: path -> value")
    parser.add_argument("--scene-out", required=True, type=Path)
    parser.add_argument("--point-out", required=True, type=Path)
    args = parser.parse_args()
    try:
        scene = json.loads(args.scene.read_text())
        settings = json.loads(args.set)
        for path, value in settings.items():
            jsonpath.set_existing(scene, path, value)
    except jsonpath.PathError as error:
        print(f"sweep_scene: not in the scene {args.scene}: {error}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as error:
        print(f"sweep_scene: {args.scene}: {error}", file=sys.stderr)
        return 1
    # Paths set by the sweep (a mesh per point) are relative to the original scene too.
    absolute_files(scene, args.scene.resolve().parent)
    args.scene_out.parent.mkdir(parents=True, exist_ok=True)
    args.scene_out.write_text(json.dumps(scene, indent=2) + "\n")
    args.point_out.write_text(json.dumps({"scene": str(args.scene), "set": settings}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
