"""Convolutions beyond cnn.py's: gradients with batch groups (grouped
kernels), strided-convolution input gradients (lhs dilation) on a split
spatial dimension, 3-D, 1-D causal dilated (halos), bf16 with f32
accumulation, split input features (partial sums) and integers."""

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P

from common import program, Prog, rng, normal, ints, mesh, jit, MESHES


def reg(name, f, make_args, mesh_name=None, in_specs=None, out_specs=None,
        note="", tol=None):
    @program(name, "conv", note=note, tol=tol)
    def build():
        r = rng(name)
        m = mesh(*MESHES[mesh_name]) if mesh_name else None
        return Prog(jit(f, m, in_specs, out_specs), make_args(r))


def conv2d(x, w, stride=1, padding="SAME", groups=1, **kw):
    return lax.conv_general_dilated(x, w, (stride, stride), padding,
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                    feature_group_count=groups, **kw)


def grouped_loss(x, w):
    return jnp.sum(jnp.sin(conv2d(x, w, stride=2, groups=2)))


reg("conv_grouped_grad_2x4", jax.grad(grouped_loss, argnums=(0, 1)),
    lambda r: (normal(r, (4, 8, 8, 4)), normal(r, (3, 3, 2, 8), scale=0.3)),
    "2x4", (P("data"), P(None, None, None, "model")),
    note="kernel gradient of a grouped conv: batch_group_count = 2")
reg("conv_strided_grad_spatial_4x2",
    jax.grad(lambda x, w: jnp.sum(conv2d(x, w, stride=2) ** 2), argnums=(0, 1)),
    lambda r: (normal(r, (2, 16, 8, 3)), normal(r, (3, 3, 3, 4), scale=0.3)),
    "4x2", (P(None, "data"), P()),
    note="input gradient of a strided conv (lhs_dilation) with H split")
reg("conv3d_spatial_2x4", lambda x, w: lax.conv_general_dilated(
    x, w, (1, 1, 1), "SAME", dimension_numbers=("NDHWC", "DHWIO", "NDHWC")),
    lambda r: (normal(r, (2, 8, 6, 6, 3)), normal(r, (3, 3, 3, 3, 4), scale=0.2)),
    "2x4", (P("data", "model"), P()), note="3-D, depth split: halos")
reg("conv1d_causal_dilated_8", lambda x, w: lax.conv_general_dilated(
    x, w, (1,), [(4, 0)], rhs_dilation=(2,), dimension_numbers=("NWC", "WIO", "NWC")),
    lambda r: (normal(r, (2, 64, 4)), normal(r, (3, 4, 6), scale=0.3)),
    "8", (P(None, "data"), P()), note="WaveNet-style causal dilated conv, time split")
reg("conv_bf16_f32_accumulate", lambda x, w: conv2d(
    x, w, preferred_element_type=jnp.float32),
    lambda r: (normal(r, (2, 8, 8, 8), jnp.bfloat16),
               normal(r, (3, 3, 8, 4), jnp.bfloat16, scale=0.2)),
    note="bf16 x bf16 -> f32")
reg("conv_input_features_1x8", lambda x, w: conv2d(x, w),
    lambda r: (normal(r, (2, 6, 6, 16)), normal(r, (3, 3, 16, 4), scale=0.1)),
    "1x8", (P(None, None, None, "model"), P(None, None, "model")),
    note="input features split: partial sums")
reg("conv_int32", lambda x, w: lax.conv_general_dilated(
    x, w, (2, 1), ((1, 0), (2, 1)), dimension_numbers=("NCHW", "OIHW", "NHWC")),
    lambda r: (ints(r, (2, 3, 7, 5), -20, 20), ints(r, (4, 3, 3, 2), -5, 5)))
