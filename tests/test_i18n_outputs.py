"""The Chinese chapters' saved outputs are Chinese: no English sentence outside an allowlist
(identifiers, code, units, proper names).

``lecturekit translate build`` runs each Chinese chapter in Chinese (its kernel learns the
edition from the notebook, :mod:`lecturekit.language`), so what lecturekit prints there comes
from the catalog. Two lists, to grow:

* :data:`LIBRARY_IN_CHINESE`: chapters where nothing lecturekit prints is English (an English
  sentence whose words are not all in the printing cell's own code came from the library);
  a chapter is listed once every lecturekit module it prints through is converted
  (tools/messages.py ``MARKED``);
* :data:`ENFORCED`: chapters where no output at all holds an English sentence, i.e. also the
  chapter's own code prints through lecturekit or ``_()`` (``from lecturekit import _``; the
  idiom is in CONTRIBUTING.md's Chinese-edition section), and whose code cells show no text
  that is not marked (``python tools/messages.py find notebooks/NN_topic.ipynb``).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from lecturekit import i18n

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import messages  # noqa: E402  (tools/messages.py)

#: Chinese chapters whose outputs hold no English sentence at all (the list to grow)
ENFORCED: tuple[str, ...] = (
    "01_processor_pipelines",
    "02_hazards_and_reordering",
    "03_dependence_graph",
    "04_list_scheduling",
    "05_optimal_scheduling",
    "06_loop_unrolling",
    "07_software_pipelining",
    "08_training_memory",
    "09_pipeline_parallelism",
    "10_parallelism_and_collectives",
    "11_hardware_limits",
    "12_real_compilers",
    "13_beyond_the_block",
    "14_tensor_compilers",
    "15_training_network",
)
#: Chinese chapters where lecturekit prints no English (their own code cells still may)
LIBRARY_IN_CHINESE = (
    "08_training_memory",
    "10_parallelism_and_collectives",
    "11_hardware_limits",
)
#: what matplotlib prints for a figure (``<Figure size 640x480 with 1 Axes>``): not prose
FIGURE_REPR = re.compile(r"<Figure size [^>]*>")

#: English words a Chinese output may keep: proper names, units, notation, and the names of
#: things as the code calls them (a preset, an algorithm, a schedule, chapter 14's loop-nest
#: steps and operators)
ALLOWED = set(
    """
    nvidia gpu gpus cpu pcie nvlink ib infiniband a100 h100 v100 p100 sxm sxm4 sxm5 pcie4
    gib gb mib mb kib kb tb tib flop flops tflop tflops pflop byte bytes bit bits s ms us ns
    fp64 fp32 tf32 bf16 fp16 fp8 int8 e4m3 e5m2 mma
    gpt llama llama2 llama3 mixtral qwen deepseek claude gemini kimi megatron lm zero fsdp ddp
    pytorch torch adam adamw sgd lecture classic5 dual mips riscv llvm mca clang gcc rocket u74
    skylake flash attention ulysses ring tree gpipe interleaved dualpipe zb h1 h2 v half min
    all reduce gather scatter to true false none
    split tile reorder fuse vectorize unroll parallel vec par kij exp log tanh relu sin cos
    matmul transpose where sum
    raw war waw mem
    """.split()
)
#: a run of three or more English words (letters, hyphens, apostrophes)
SENTENCE = re.compile(r"[A-Za-z][A-Za-z0-9'-]*(?:[ ,;:()]+[A-Za-z][A-Za-z0-9'-]*){2,}")
#: what is code or an identifier, not prose: registers, snake_case, dotted names, key=value
CODE = re.compile(r"\$\w+|\w+_\w+|\w+\.\w+|\w+=\S+|`[^`]*`|\b0x[0-9a-fA-F]+")


#: what a chapter quotes verbatim, whose English is not the course's: the source of the example
#: functions it prints (``inspect.getsource``) and the saved output of real tools (PyTorch's
#: errors and warnings, GCC's dumps, TVM and Halide); a sentence found in them is a quotation
QUOTED_FILES = ("lecturekit/tensor/examples.py", "lecturekit/data/tensor/chapter14.json")


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in [*value.keys(), *value.values()] for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _normal(text: str) -> str:
    return " ".join(CODE.sub(" ", text).split())


def _quoted_texts() -> list[str]:
    texts = []
    for rel in QUOTED_FILES:
        raw = (ROOT / rel).read_text(encoding="utf-8")
        texts += _strings(json.loads(raw)) if rel.endswith(".json") else [raw]
    return [_normal(t) for t in texts]


QUOTED_TEXTS = _quoted_texts()


def quoted(sentence: str) -> bool:
    """Whether ``sentence`` is part of a quotation (:data:`QUOTED_FILES`), not the course's text."""
    normal = _normal(sentence)
    return any(normal in text for text in QUOTED_TEXTS)


def is_prose(word: str) -> bool:
    """An English word of prose: three letters or more, no digit, not an allowed word (``TP``,
    ``B3``, ``x`` are notation)."""
    plain = re.fullmatch(r"[A-Za-z'-]{3,}", word) is not None
    return plain and word.lower().strip("'-") not in ALLOWED


def english_sentences(text: str) -> list[str]:
    """Runs of three or more English words in ``text`` that are not all allowed words, once
    code, identifiers and allowed words are taken out."""
    found = []
    for line in FIGURE_REPR.sub(" ", text).splitlines():
        line = CODE.sub(" ", line)
        for m in SENTENCE.finditer(line):
            words = re.findall(r"[A-Za-z][A-Za-z0-9'-]*", m.group(0))
            prose = [w for w in words if is_prose(w)]
            if len(prose) >= 3 and not quoted(m.group(0)):
                found.append(m.group(0).strip())
    return found


#: a widget's output: its text/plain is the kernel's repr of the widget, not what anyone reads
WIDGET = "application/vnd.jupyter.widget-view+json"


def output_texts(path: Path) -> list[tuple[str, str]]:
    """(cell id, text) of every text output of ``path``'s code cells (stream, a Markdown table
    the cell displayed, text/plain; a figure is checked by tests/test_fonts.py, a widget by the
    widget tests)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if WIDGET in data:
                continue
            text = out.get("text") or data.get("text/markdown") or data.get("text/plain", "")
            text = "".join(text) if isinstance(text, list) else text
            if text:
                found.append((cell.get("id", "?"), text))
    return found


def test_the_check_finds_english_and_lets_code_names_and_units_through():
    assert english_sentences("在 lecture 上共 11 个周期，4 个阻塞周期") == []
    assert english_sentences("GPT-3 (lecture) 2,048 0.8 GiB; NVIDIA A100 SXM4 80 GB") == []
    assert english_sentences("add $t2, $t0, $t1  list_schedule(g, priority=height)") == []
    assert english_sentences("0.1 in FP32 bits: 0x3dcccccd, rounded to BF16: 0x3dcd") == []
    assert english_sentences("the simulated table equals the slide's: True") == [
        "the simulated table equals the slide's: True"
    ]
    assert english_sentences("dp x tp x pp ZeRO    m   TP     PP     DP") == []
    assert english_sentences("what each step costs, against the step before:") != []


def own(sentence: str, source: str) -> bool:
    """Whether the printing cell's own code wrote ``sentence`` (all its words are in it)."""
    words = re.findall(r"[A-Za-z'-]+", sentence)
    return all(w in source for w in words if is_prose(w))


def test_a_markdown_table_is_read_and_a_widgets_repr_is_not(tmp_path):
    nb = {
        "cells": [
            {
                "cell_type": "code",
                "id": "t",
                "source": "",
                "outputs": [
                    {
                        "output_type": "display_data",
                        "data": {
                            "text/markdown": "| order | cycles |\n| --- | --- |\n| program order |",
                            "text/plain": "<IPython.core.display.Markdown object>",
                        },
                    },
                    {
                        "output_type": "display_data",
                        "data": {WIDGET: {"model_id": "x"}, "text/plain": "VBox(children=...)"},
                    },
                ],
            }
        ]
    }
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    ((cell, text),) = output_texts(path)
    assert cell == "t" and text.startswith("| order | cycles |")


def test_printed_by_the_cell_or_by_the_library():
    source = 'print(f"{n} params, model states {x:.1f} GiB")'
    assert own("params, model states", source)
    assert not own("cycles on lecture", source)


@pytest.mark.parametrize("name", LIBRARY_IN_CHINESE)
def test_lecturekit_prints_chinese_in_a_chinese_chapter(name):
    path = i18n.edition_path(ROOT, ROOT / "notebooks" / f"{name}.ipynb")
    nb = json.loads(path.read_text(encoding="utf-8"))
    sources = {c.get("id", "?"): "".join(c["source"]) for c in nb["cells"]}
    found = [
        f"cell {cell}: {sentence!r}"
        for cell, text in output_texts(path)
        for sentence in english_sentences(text)
        if not own(sentence, sources[cell])
    ]
    assert not found, (
        f"{path.relative_to(ROOT)}: lecturekit printed English (run `lecturekit translate "
        f"build {name[:2]}`; if it still does, the text is not in the catalog yet):\n"
        + "\n".join(found[:40])
    )


@pytest.mark.parametrize("name", ENFORCED)
def test_a_chinese_chapters_outputs_are_chinese(name):
    path = i18n.edition_path(ROOT, ROOT / "notebooks" / f"{name}.ipynb")
    found = [
        f"cell {cell}: {sentence!r}"
        for cell, text in output_texts(path)
        for sentence in english_sentences(text)
    ]
    assert not found, (
        f"{path.relative_to(ROOT)} prints English (run `lecturekit translate build "
        f"{name[:2]}`; if it still does, the text is not in the catalog yet):\n"
        + "\n".join(found[:40])
    )


@pytest.mark.parametrize("name", ENFORCED)
def test_a_chinese_chapters_code_marks_what_it_shows(name):
    """The chapter's code cells (the same in both editions) show no text that is not in the
    catalog, and do not rebind the ``_`` they translate with."""
    chapter = f"notebooks/{name}.ipynb"
    found = [str(u) for u in messages.find([chapter])]
    found += messages.shadowed(paths=(chapter,))
    found += messages.marked_calls_with_no_literal(paths=(chapter,))
    assert not found, (
        f"{chapter} shows text that is not marked (wrap it in _(), see CONTRIBUTING.md's "
        "Chinese edition):\n" + "\n".join(found[:40])
    )


SETS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("master", SETS, ids=lambda p: p.stem[:2])
def test_a_problem_sets_setup_prints_chinese_in_the_chinese_edition(master):
    """The setup cells of each problem set (the same code in exercises/ and exercises/zh) run in
    Chinese print no English sentence: their own text goes through _() like a chapter's, and
    nothing before the first question is left unmarked (tools/messages.py find solutions)."""
    import contextlib
    import io

    from lecturekit import language

    assert not messages.find([master.relative_to(ROOT).as_posix()])
    nb = json.loads(master.read_text(encoding="utf-8"))
    setup = []
    for cell in nb["cells"]:
        text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell["cell_type"] == "raw" and text.strip().upper().startswith("# BEGIN QUESTION"):
            break
        if cell["cell_type"] == "code":
            setup.append(re.sub(r"^\s*[%!].*$", "", text, flags=re.MULTILINE))
    # after the first question, a student's cell may have rebound `_` (`for _ in range(n)`):
    # a later cell that translates imports `_` itself
    asked = False
    for cell in nb["cells"]:
        text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        asked = asked or text.strip().upper().startswith("# BEGIN QUESTION")
        if asked and cell["cell_type"] == "code" and re.search(r"(?<![\w.])_\(", text):
            assert re.search(r"from lecturekit import .*(?<!\w)_(?!\w)", text), (
                f"{master.name} cell {cell.get('id')} calls _() after a question without "
                "importing it in the same cell"
            )
    out = io.StringIO()
    with language.using("zh"), contextlib.redirect_stdout(out):
        exec(compile("\n".join(setup), str(master), "exec"), {"__name__": "__main__"})  # noqa: S102
    printed = out.getvalue()
    found = english_sentences(printed)
    assert not found, f"{master.name}'s setup prints English in Chinese:\n" + "\n".join(found)


def test_a_quotation_is_not_the_courses_english():
    """PyTorch's own error, saved and printed by chapter 14, is a quotation; a sentence of the
    course's own is not, even beside a quoted one."""
    assert quoted("symbolically traced variables cannot be used as inputs to control flow")
    assert not quoted("the schedule is shorter than the lower bound")
    assert not english_sentences(
        "TraceError: symbolically traced variables cannot be used as inputs"
    )
    assert english_sentences("the schedule is shorter than the lower bound") == [
        "the schedule is shorter than the lower bound"
    ]
