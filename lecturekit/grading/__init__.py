"""Problem sets with otter-grader: make the student notebooks, and grade a folder of submissions.

The instructor edits only ``solutions/NN_topic.ipynb`` (otter-grader's master-notebook format:
questions, solutions and public and hidden tests in one notebook). Then

* ``lecturekit assign`` runs ``otter assign`` on every solution notebook and copies the student
  version into ``exercises/`` as ``NN_topic_problems.ipynb`` (the autograder material goes to the
  ignored ``build/otter/``);
* ``lecturekit grade CHAPTER SUBMISSIONS...`` grades every submitted notebook against the public
  *and hidden* tests and writes one CSV row per student, one column per question.

Grading needs no server, database or Docker, and a score can be trusted: each submission runs
in a bubblewrap sandbox that sees no solutions, autograder or other submission, and its score is
computed by a trusted process from plain data the sandbox hands back, capped at each question's
points (see :mod:`lecturekit.grading.run` for the design and :mod:`lecturekit.grading.sandbox`). A
cell that raises is recorded and the run goes on; a cell or a question that runs too long is stopped
(it scores 0, the answers given before it still count).

The folder, in the order a problem set travels through it:

* :mod:`~lecturekit.grading.assign` -- master notebook -> student notebook (``otter assign``),
  and the questions' configs (kind, rubric);
* :mod:`~lecturekit.grading.check` -- the student's ``grader.check("q1")`` in JupyterLab (no otter);
* :mod:`~lecturekit.grading.oktests` -- otter's test format run without otter (points per case);
* :mod:`~lecturekit.grading.grade` -- a folder of submissions -> one CSV row per student;
* :mod:`~lecturekit.grading.run` -- one submission: the trusted driver and the parent's side;
* :mod:`~lecturekit.grading.worker` -- what runs inside the sandbox: the submission's cells;
* :mod:`~lecturekit.grading.portable` -- a student's function as a recipe (code and what it uses);
* :mod:`~lecturekit.grading.callee` -- the library-free interpreter a function is called in;
* :mod:`~lecturekit.grading.calls` -- the trusted side of those calls (fresh plain-data copies);
* :mod:`~lecturekit.grading.local_callee` -- that interpreter beside the student's kernel, for
  ``grader.check`` on Linux, macOS and Windows alike;
* :mod:`~lecturekit.grading.plain` -- course objects as the plain data a function receives;
* :mod:`~lecturekit.grading.protocol` -- the plain data the processes exchange over pipes;
* :mod:`~lecturekit.grading.messages` -- text made where lecturekit is not, in the language spoken;
* :mod:`~lecturekit.grading.noeffort` -- submissions made with no effort, which must score 0;
* :mod:`~lecturekit.grading.sandbox` -- bubblewrap: the cells' and the functions' sandboxes;
* :mod:`~lecturekit.grading.limits` -- per-submission processes, memory and disk.

Grading imports nothing of lecturekit but the foundation (:mod:`lecturekit.errors`,
:mod:`lecturekit.i18n`, :mod:`lecturekit.language`). Otter-grader is needed by ``assign`` (and so
by ``grade``, which assigns a stale autograder), never by the student's ``grader.check``.
"""

from .assign import (
    COURSE_MARKERS,
    INIT_CELL,
    Question,
    answer_types,
    assign_all,
    assign_one,
    check_course,
    find_course,
    questions,
    stable_cell_ids,
)
from .grade import (
    Grade,
    autograder_notebook,
    find_master,
    grade_folder,
    grade_submission,
    printable,
)
from .plain import inputs_after_call, plain_graph, plain_program

__all__ = [
    "COURSE_MARKERS",
    "INIT_CELL",
    "Grade",
    "Question",
    "answer_types",
    "assign_all",
    "assign_one",
    "autograder_notebook",
    "check_course",
    "find_course",
    "find_master",
    "grade_folder",
    "grade_submission",
    "inputs_after_call",
    "plain_graph",
    "plain_program",
    "printable",
    "questions",
    "stable_cell_ids",
]
