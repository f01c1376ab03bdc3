"""The build hook that puts the course into the wheel; everything else is in pyproject.toml.

The lessons (``notebooks/*.ipynb``) and exercises (``exercises/*.ipynb``) stay where they
are, the one copy the repository keeps; building a wheel copies them into
``gofish_teach/teacher/_course/`` so that ``gofish-teach course DIR`` works from an installed package.
Only the notebooks directly in those folders go: never ``solutions/``, the teacher's guide, or
a subfolder such as ``notebooks/teacher/``. An editable install copies nothing:
``gofish_teach.teacher.course`` then reads the repository's folders.
"""
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

COURSE_FOLDERS = ("notebooks", "exercises")


class build_py_with_course(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for folder in COURSE_FOLDERS:
            for notebook in sorted(Path(folder).glob("*.ipynb")):
                target = Path(self.build_lib, "gofish_teach", "teacher", "_course", folder, notebook.name)
                self.mkpath(str(target.parent))
                self.copy_file(str(notebook), str(target))


setup(cmdclass={"build_py": build_py_with_course})
