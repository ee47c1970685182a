"""The package metadata in pyproject.toml uses the forms current setuptools expects."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

PYPROJECT = tomllib.loads(
    (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8")
)


def test_the_license_is_an_spdx_expression() -> None:
    # license = { text = ... } makes setuptools >= 77 print a deprecation warning at set-up
    # (three times); the SPDX string is the current form (PEP 639).
    assert PYPROJECT["project"]["license"] == "MIT"
    assert not any("License ::" in c for c in PYPROJECT["project"].get("classifiers", []))


def test_the_build_needs_a_setuptools_that_reads_it() -> None:
    requires = PYPROJECT["build-system"]["requires"]
    found = [re.fullmatch(r"setuptools>=(\d+)(\.\d+)*", r) for r in requires]
    versions = [int(m.group(1)) for m in found if m]
    assert versions and versions[0] >= 77, requires  # PEP 639 license strings: setuptools 77


VENV_STUB = (
    "#!/bin/sh\n"
    'if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then\n'
    '  mkdir -p "$3/bin"; cp "$0" "$3/bin/python"; exit 0\n'
    "fi\n"
)
"""The start of a stand-in Python: ``-m venv DIR`` makes DIR/bin/python a copy of it."""


def _dev_test_with(tmp_path: Path, python_rest: str) -> subprocess.CompletedProcess[str]:
    """``bash dev test`` on a copy of ``dev`` (with pyproject.toml and the desk's npm
    files), a stand-in npm that logs to calls.log and a stand-in Python: ``VENV_STUB``
    followed by ``python_rest``."""
    root = Path(__file__).resolve().parents[1]
    shutil.copy(root / "dev", tmp_path / "dev")
    shutil.copy(root / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "docs" / "desk").mkdir(parents=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copy(root / "docs" / "desk" / name, tmp_path / "docs" / "desk" / name)
    tools = tmp_path / "tools"
    tools.mkdir()
    npm = tools / "npm"  # a stand-in npm that only logs (the dispute desk's Pyodide)
    npm.write_text(f'#!/bin/sh\necho "npm $*" >> "{tmp_path / "calls.log"}"\n')
    npm.chmod(0o755)
    fake = tmp_path / "fake-python"
    fake.write_text(VENV_STUB + python_rest)
    fake.chmod(0o755)
    return subprocess.run(
        ["bash", "dev", "test"],
        cwd=tmp_path,
        env={"PATH": f"{tools}:/usr/bin:/bin", "PYTHON": str(fake)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_dev_setup_shows_a_line_per_step_and_pips_own_progress(tmp_path: Path) -> None:
    """A first ``bash dev`` is never silent: a line per step, and pip's output (not
    ``--quiet``).  Run on a copy of ``dev`` with a stand-in Python that only logs; it
    installs no uv, so this is also the way without uv: pip installs the project."""
    log = tmp_path / "calls.log"
    done = _dev_test_with(
        tmp_path,
        f'echo "python $*" >> "{log}"\n'
        'if [ "$2" = "pip" ]; then echo "Collecting something (pip says so)"; fi\n',
    )
    assert done.returncode == 0, done.stderr
    steps = [line for line in done.stderr.splitlines() if line.startswith("dev: [")]
    assert [line[:10] for line in steps] == ["dev: [1/3]", "dev: [2/3]", "dev: [3/3]"]
    assert done.stderr.count("Collecting something (pip says so)") == 2
    calls = log.read_text()
    assert "pip install" in calls and "--quiet" not in calls and "-q " not in calls
    assert "pip install --upgrade --progress-bar on pip uv>=0.5,<1" in calls  # uv asked for
    assert "pip install --progress-bar on -e .[dev]" in calls  # without it, pip installs
    assert "dev: uv did not install them: pip does (slower)" in done.stderr
    assert "npm ci --prefix docs/desk" in calls
    assert "dev: .venv is ready" in done.stderr


def test_dev_setup_installs_with_uv_when_pip_gives_it(tmp_path: Path) -> None:
    """Where pip installs uv, uv installs the project (editable, with every extra) and
    pip does not install it again.  A stand-in Python whose pip leaves a logging uv."""
    log = tmp_path / "calls.log"
    done = _dev_test_with(
        tmp_path,
        f'echo "python $*" >> "{log}"\n'
        'case "$*" in *"uv>="*)\n'
        f'  printf \'#!/bin/sh\\necho "uv $*" >> "{log}"\\n\' > "$(dirname "$0")/uv"\n'
        '  chmod +x "$(dirname "$0")/uv";;\n'
        "esac\n",
    )
    assert done.returncode == 0, done.stderr
    calls = log.read_text().splitlines()
    assert "uv pip install --python .venv/bin/python -e .[dev]" in calls
    assert not [c for c in calls if "-e .[dev]" in c and c.startswith("python")], calls
    assert "did not install" not in done.stderr


def test_the_wheel_installs_the_library_alone(tmp_path: Path) -> None:
    """The wheel holds ``castlerules`` and nothing else: the proofs (``proofs/``) are the
    repository's, never installed (the library does not import them, see the
    import-linter contract ``no-proofs``)."""
    import shutil
    import subprocess
    import sys
    import zipfile

    assert PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"] == ["castlerules*"]
    root = Path(__file__).resolve().parents[1]
    source = tmp_path / "source"
    shutil.copytree(
        root / "castlerules", source / "castlerules", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(
        root / "proofs", source / "proofs", ignore=shutil.ignore_patterns("__pycache__")
    )
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (root / name).exists():
            shutil.copy(root / name, source / name)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "-w", str(tmp_path / "wheel"),
         "--no-deps", "--no-build-isolation", "-q"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (wheel,) = (tmp_path / "wheel").glob("*.whl")
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert "proofs" not in tops
    assert tops == {
        "castlerules",
        f"{wheel.name.split('-')[0]}-{wheel.name.split('-')[1]}.dist-info",
    }
