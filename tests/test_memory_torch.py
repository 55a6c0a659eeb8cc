"""The calculator against what PyTorch really saves for backward (needs the optional torch)."""

import pytest

from lecturekit.llm.config import PRESETS, ModelConfig, precision
from lecturekit.llm.measure import measure_saved_activations, torch_available
from lecturekit.llm.memory import memory_report

pytestmark = pytest.mark.needs("torch")


@pytest.mark.parametrize(
    "model",
    [
        PRESETS["tiny"],
        ModelConfig(96, 32, 3, 6, 2, 200, final_norm_bias=False),
        ModelConfig(96, 32, 3, 6, 2, 200, dropout=False),
    ],
)
@pytest.mark.parametrize("dtype, fmt", [("bfloat16", "bf16"), ("float32", "fp32")])
def test_calculator_within_one_percent_of_pytorch(model, dtype, fmt):
    measured = measure_saved_activations(model, dtype).bytes
    predicted = memory_report(model, precision=precision(fmt)).activations
    # what the calculator leaves out: LayerNorm mean/rstd, token ids, targets (< 1%)
    assert predicted <= measured <= predicted * 1.01


def test_torch_available():
    assert torch_available()
