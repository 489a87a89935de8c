"""The wheel carries what geodeck reads besides its code: templates/, sources/ and the published decks
(output/decks/) go into the package as pipeline/_data/, where pipeline/paths.py finds them when installed.
An editable install (`make install`) reads them from the checkout instead."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DATA = ("templates", "sources", "output/decks")


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / "pipeline" / "_data"
        for folder in DATA:
            shutil.copytree(folder, target / folder, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))


setup(cmdclass={"build_py": BuildWithData})
