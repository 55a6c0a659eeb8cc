"""Number formats: figures from the layout against numpy, rounding, bits, mixed precision."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.errors import ConfigError
from lecturekit.llm import formats as F


@pytest.mark.parametrize(
    "name, dtype", [("fp16", np.float16), ("fp32", np.float32), ("fp64", np.float64)]
)
def test_layout_figures_match_np_finfo(name, dtype):
    f, info = F.get_format(name), np.finfo(dtype)
    assert f.bits == info.bits
    assert f.exponent_bits == info.nexp
    assert f.mantissa_bits == info.nmant
    assert f.max == float(info.max)
    assert f.min_normal == float(info.smallest_normal)
    assert f.min_subnormal == float(info.smallest_subnormal)
    assert f.epsilon == float(info.eps)


def test_known_figures():
    bf16, fp16, tf32 = F.get_format("bf16"), F.get_format("fp16"), F.get_format("tf32")
    assert (bf16.bits, bf16.bias, bf16.epsilon) == (16, 127, 2**-7)
    assert bf16.max == (2 - 2**-7) * 2**127  # about 3.39e38: FP32's range
    assert fp16.max == 65504 and fp16.min_subnormal == 2**-24 and fp16.bias == 15
    assert (tf32.bits, tf32.bytes, tf32.epsilon) == (19, 4, 2**-10)
    e4m3, e5m2 = F.get_format("e4m3"), F.get_format("fp8_e5m2")
    assert (e4m3.max, e4m3.min_normal, e4m3.min_subnormal) == (448, 2**-6, 2**-9)
    assert (e5m2.max, e5m2.min_normal, e5m2.min_subnormal) == (57344, 2**-14, 2**-16)
    assert F.bytes_per_element("bfloat16") == 2 and F.bytes_per_element("int8") == 1
    rows = F.format_table()
    assert [r["format"] for r in rows] == ["fp32", "tf32", "bf16", "fp16", "fp8_e4m3", "fp8_e5m2"]
    assert all(r["sign"] + r["exponent"] + r["mantissa"] == r["bits"] for r in rows)


finite64 = st.floats(allow_nan=False, allow_infinity=False, width=64)


@given(finite64)
@settings(max_examples=400, deadline=None)
def test_quantize_fp16_and_fp32_match_numpy_casts(x):
    with np.errstate(over="ignore"):
        want16 = float(np.float16(x))
        want32 = float(np.float32(x))
    assert F.quantize(x, "fp16") == want16 or (
        math.isnan(want16) and math.isnan(F.quantize(x, "fp16"))
    )
    assert F.quantize(x, "fp32") == want32
    assert math.copysign(1, F.quantize(x, "fp16")) == math.copysign(1, want16)


@given(st.lists(finite64, min_size=1, max_size=20))
@settings(max_examples=100, deadline=None)
def test_array_quantize_equals_scalar_quantize(xs):
    for fmt in ("fp16", "bf16", "fp8_e4m3", "fp8_e5m2", "tf32"):
        arr = F.quantize(np.array(xs), fmt)
        scal = [F.quantize(x, fmt) for x in xs]
        np.testing.assert_array_equal(arr, np.array(scal))


@given(st.floats(width=32, allow_nan=False))
@settings(max_examples=400, deadline=None)
def test_bf16_bit_trick_is_round_to_nearest_even(x):
    bits = F.fp32_to_bf16_bits(np.float32(x))
    assert F.bf16_bits_to_fp32(bits) == F.quantize(x, "bf16")
    assert bits == F.encode(x, "bf16")


def test_bf16_ties_go_to_even():
    # 1 + 2^-8 is exactly halfway between bf16 neighbours 1 and 1 + 2^-7: goes to 1 (even)
    assert F.quantize(1 + 2**-8, "bf16") == 1.0
    # 1 + 3·2^-8 is halfway between 1 + 2^-7 (odd) and 1 + 2^-6 (even): goes up
    assert F.quantize(1 + 3 * 2**-8, "bf16") == 1 + 2**-6
    assert F.fp32_to_bf16_bits(np.float32(1 + 2**-8)) == 0x3F80
    assert F.fp32_to_bf16_bits(np.float32(1 + 3 * 2**-8)) == 0x3F82
    assert F.fp32_to_bf16_bits(np.float32(np.nan)) & 0x7FC0 == 0x7FC0


@given(st.floats(width=32))
@settings(max_examples=300, deadline=None)
def test_numpy_views_agree_with_encode_from_the_layout(x):
    for fmt in ("fp16", "fp32", "tf32"):
        if math.isnan(x):
            assert math.isnan(F.decode(F.to_bits(x, fmt), fmt))
            continue
        assert F.to_bits(x, fmt) == F.encode(x, fmt)
        assert F.decode(F.to_bits(x, fmt), fmt) == F.quantize(x, fmt)


@given(st.integers(0, 255))
def test_fp8_decode_encode_round_trip(bits):
    for fmt in ("fp8_e4m3", "fp8_e5m2"):
        v = F.decode(bits, fmt)
        if math.isnan(v):
            continue
        assert F.encode(v, fmt) == bits


def test_bit_fields():
    b = F.bit_fields(-2.5, "fp16")
    assert (b.sign, b.exponent_str, b.mantissa_str) == (1, "10000", "0100000000")
    assert b.value == -2.5 and b.kind == "normal" and b.unbiased_exponent == 1
    assert "1 | 10000 | 0100000000" in str(b)
    assert F.bit_fields(1e-7, "fp16").kind == "subnormal"
    assert F.bit_fields(1e-9, "fp16").kind == "zero"
    assert F.bit_fields(1e5, "fp16").kind == "inf"
    assert F.bit_fields(1e5, "bf16").kind == "normal"
    assert F.bit_fields(500, "e4m3").kind == "nan"  # E4M3 has no infinity
    one = F.bit_fields(1.0, "fp32")
    assert one.bits == 0x3F800000 and one.exponent == 127 and one.mantissa == 0


def test_swamping_example_from_the_notes():
    """Weight 2^-3 plus gradient 2^-14 in fp16 gives 2^-3: the update is lost."""
    s = F.swamping(2**-3, 2**-14, "fp16")
    assert s.result == 2**-3 and s.lost
    assert s.ulp == 2**-13  # 2^-3 × 2^-10: 10 mantissa bits
    assert s.small == s.ulp / 2  # exactly half a gap: a tie, rounded to even (2^-3)
    assert np.float16(2**-3) + np.float16(2**-14) == np.float16(2**-3)
    assert F.add(2**-3, 2**-14, "fp16") == float(np.float16(2**-3) + np.float16(2**-14))
    assert not F.swamping(2**-3, 2**-14, "fp32").lost
    assert F.swamping(2**-3, 2**-14, "bf16").lost
    assert not F.swamping(2**-3, 2**-13, "fp16").lost


@given(st.floats(-1e4, 1e4, width=16), st.floats(-1e4, 1e4, width=16))
@settings(max_examples=300, deadline=None)
def test_add_matches_numpy_fp16(a, b):
    assert F.add(a, b, "fp16") == float(np.float16(a) + np.float16(b))


def test_accumulation_fp16_vs_fp32_master_weights():
    w16 = F.accumulate(1.0, 1e-4, 1000, "fp16")
    w32 = F.accumulate(1.0, 1e-4, 1000, "fp32")
    assert len(w16) == 1001
    assert np.all(w16 == 1.0)  # every update below half an ulp (2^-11): all lost
    assert abs(w32[-1] - 1.1) < 1e-4  # fp32 rounds each add too, but by ~1e-8
    # an update of a full ulp is never lost
    assert F.accumulate(1.0, 2**-10, 4, "fp16")[-1] == 1 + 4 * 2**-10


def test_loss_scaling_rescues_small_gradients():
    rng = np.random.default_rng(0)
    g = np.exp(rng.uniform(np.log(1e-10), np.log(1e-3), 10_000))
    plain = F.cast_gradients(g, 1.0, "fp16")
    scaled = F.cast_gradients(g, 2.0**16, "fp16")
    too_big = F.cast_gradients(g, 2.0**30, "fp16")
    below = np.mean(g < 2**-25)  # these round to 0 in fp16
    assert plain.zero_fraction == pytest.approx(below, abs=0.01)
    assert plain.zero_fraction > 0.2
    assert scaled.zero_fraction == 0 and scaled.overflow_fraction == 0
    assert scaled.median_relative_error < plain.median_relative_error / 10
    assert too_big.overflow_fraction > 0
    assert F.cast_gradients(g, 1.0, "bf16").zero_fraction == 0  # bf16 has FP32's range


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: F.get_format("fp12"), "unknown format 'fp12'"),
        (lambda: F.bit_fields("x", "fp16"), "expected a number"),
        (lambda: F.decode(70000, "fp16"), "not a 16-bit pattern"),
        (lambda: F.ulp(1e6, "fp16"), "not a finite fp16"),
        (lambda: F.accumulate(steps=-1), "steps must be"),
        (lambda: F.cast_gradients([], 1.0), "no gradients"),
        (lambda: F.cast_gradients([1.0], 0), "scale must be > 0"),
    ],
)
def test_bad_input(call, words):
    with pytest.raises(ConfigError) as info:
        call()
    assert words in str(info.value)
