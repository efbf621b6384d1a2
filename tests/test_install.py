"""An installed wheel matches on a machine without the checkout: the index travels as package
data, and `relref match` needs neither mkdocs nor the records."""
import json
import subprocess
import sys
import venv

import pytest

from relref import paths

PASTE = "[  812.334455] NVRM: Xid (PCI:0000:3b:00): 79, pid=2312, name=python, GPU has fallen off the bus.\n"


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("install")
    wheels = tmp / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(paths.ROOT), "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(wheels)], check=True, cwd=tmp)
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    wheel = next(wheels.glob("*.whl"))
    subprocess.run([str(env_dir / "bin" / "pip"), "install", "-q", str(wheel)], check=True, cwd=tmp)
    return env_dir, tmp


def test_wheel_matches_without_checkout(installed):
    env_dir, cwd = installed
    out = subprocess.run([str(env_dir / "bin" / "relref"), "match", "-", "--json"], input=PASTE,
                         capture_output=True, text=True, cwd=cwd)
    result = json.loads(out.stdout)
    assert result["matches"][0]["id"] == "gpu-lost-collective-timeout"
    assert out.returncode == (0 if result["confident"] else 1)


def test_wheel_has_no_site_engine_and_says_what_build_needs(installed):
    env_dir, cwd = installed
    probe = subprocess.run([str(env_dir / "bin" / "python"), "-c", "import mkdocs"], capture_output=True, cwd=cwd)
    assert probe.returncode != 0
    build = subprocess.run([str(env_dir / "bin" / "relref"), "lint"], capture_output=True, text=True, cwd=cwd)
    assert build.returncode == 2 and "site extra" in build.stderr


def test_python_api_from_the_wheel(installed):
    env_dir, cwd = installed
    code = ("from relref.match import load_engine\n"
            f"r = load_engine().match({PASTE!r}, context='8x H100, Slurm')\n"
            "print(r['matches'][0]['id'], 'slurm' in r['hints']['environments'])")
    out = subprocess.run([str(env_dir / "bin" / "python"), "-c", code], capture_output=True, text=True, cwd=cwd, check=True)
    assert out.stdout.split() == ["gpu-lost-collective-timeout", "True"]
