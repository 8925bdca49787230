"""A ResNet block and a small CNN: conv_general_dilated (strides, padding,
dilation, feature groups), batch norm, max/avg pooling (reduce_window) and
its gradient (select_and_scatter)."""

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P

from common import program, Prog, rng, normal, ints, mesh, jit, MESHES

NHWC = ("NHWC", "HWIO", "NHWC")


def conv(x, w, stride=1, padding="SAME", dil=1, groups=1, lhs_dil=1):
    return lax.conv_general_dilated(x, w, (stride, stride), padding,
                                    lhs_dilation=(lhs_dil, lhs_dil),
                                    rhs_dilation=(dil, dil),
                                    dimension_numbers=NHWC,
                                    feature_group_count=groups)


def reg(name, f, make_args, mesh_name=None, in_specs=None, out_specs=None,
        note="", tol=None, long=False):
    @program(name, "cnn", note=note, tol=tol, long=long)
    def build():
        r = rng(name)
        m = mesh(*MESHES[mesh_name]) if mesh_name else None
        return Prog(jit(f, m, in_specs, out_specs), make_args(r))


X = lambda r, n=8, h=8, c=4: normal(r, (n, h, h, c))
W = lambda r, k=3, ci=4, co=8: normal(r, (k, k, ci, co), scale=(k * k * ci) ** -0.5)

reg("conv_same", lambda x, w: conv(x, w), lambda r: (X(r), W(r)))
reg("conv_valid_stride2", lambda x, w: conv(x, w, 2, "VALID"), lambda r: (X(r, h=9), W(r)))
reg("conv_explicit_pad_dilation", lambda x, w: conv(x, w, 1, ((2, 1), (0, 3)), dil=2),
    lambda r: (X(r), W(r)))
reg("conv_depthwise_groups", lambda x, w: conv(x, w, groups=4),
    lambda r: (X(r), W(r, ci=1, co=8)))
reg("conv_grouped_2", lambda x, w: conv(x, w, groups=2), lambda r: (X(r), W(r, ci=2, co=8)))
reg("conv_transpose_lhs_dilation", lambda x, w: lax.conv_transpose(
    x, w, (2, 2), "SAME", dimension_numbers=NHWC), lambda r: (X(r, h=4), W(r)))
reg("conv_nchw_1d", lambda x, w: lax.conv(x, w, (1,), "SAME"),
    lambda r: (normal(r, (2, 4, 16)), normal(r, (6, 4, 5), scale=0.2)))
reg("conv_dp_8", lambda x, w: conv(x, w), lambda r: (X(r), W(r)), "8", (P("data"), P()))
reg("conv_dp_2x4_channels", lambda x, w: conv(x, w), lambda r: (X(r), W(r)), "2x4",
    (P("data"), P(None, None, None, "model")))
reg("conv_spatial_4x2", lambda x, w: conv(x, w), lambda r: (X(r, n=4, h=16), W(r)), "4x2",
    (P(None, "data"), P()), note="H sharded: halo exchange")


def maxpool(x):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


def avgpool(x):
    return lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 2, 2, 1), "SAME") / 9.0


reg("maxpool_avgpool", lambda x: (maxpool(x), avgpool(x)), lambda r: (X(r),))
reg("maxpool_grad", jax.grad(lambda x: jnp.sum(maxpool(x) ** 2)), lambda r: (X(r),),
    note="select_and_scatter")
reg("avgpool_grad_8", jax.grad(lambda x: jnp.sum(jnp.sin(avgpool(x)))), lambda r: (X(r),),
    "8", (P("data"),))
reg("maxpool_overlapping_grad", jax.grad(lambda x: jnp.sum(lax.reduce_window(
    x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME"))), lambda r: (X(r),))


def batchnorm(x, g, b, eps=1e-5):
    mu = jnp.mean(x, (0, 1, 2))
    var = jnp.var(x, (0, 1, 2))
    return (x - mu) * lax.rsqrt(var + eps) * g + b, mu, var


reg("batchnorm_dp_8", batchnorm, lambda r: (X(r), 1 + normal(r, (4,), scale=0.1),
                                            normal(r, (4,), scale=0.1)),
    "8", (P("data"), P(), P()))


def resnet_block(p, x):
    h = conv(x, p["w1"])
    h, _, _ = batchnorm(h, p["g1"], p["b1"])
    h = jax.nn.relu(h)
    h = conv(h, p["w2"])
    h, _, _ = batchnorm(h, p["g2"], p["b2"])
    return jax.nn.relu(h + x)


def rn_init(r, c=8):
    return {"w1": W(r, ci=c, co=c), "g1": 1 + normal(r, (c,), scale=0.1),
            "b1": normal(r, (c,), scale=0.1), "w2": W(r, ci=c, co=c),
            "g2": 1 + normal(r, (c,), scale=0.1), "b2": normal(r, (c,), scale=0.1)}


reg("resnet_block_dp_8", resnet_block, lambda r: (rn_init(r), X(r, c=8)), "8",
    ({k: P() for k in ("w1", "g1", "b1", "w2", "g2", "b2")}, P("data")))
reg("resnet_block_2x4", resnet_block, lambda r: (rn_init(r), X(r, c=8)), "2x4",
    ({"w1": P(None, None, None, "model"), "g1": P(), "b1": P(),
      "w2": P(None, None, "model"), "g2": P(), "b2": P()}, P("data")))
reg("resnet_block_grad_dp_8", jax.grad(lambda p, x: jnp.mean(resnet_block(p, x) ** 2)),
    lambda r: (rn_init(r), X(r, c=8)), "8",
    ({k: P() for k in ("w1", "g1", "b1", "w2", "g2", "b2")}, P("data")))


def small_cnn(p, x):
    h = jax.nn.relu(conv(x, p["c1"]))
    h = maxpool(h)
    h = jax.nn.relu(conv(h, p["c2"], stride=2))
    h = h.mean((1, 2))
    return h @ p["fc"]


def cnn_init(r):
    return {"c1": W(r, ci=1, co=8), "c2": W(r, ci=8, co=16), "fc": normal(r, (16, 10), scale=0.25)}


def cnn_train(p, x, labels):
    def loss(p):
        logits = small_cnn(p, x)
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(labels, 10), -1))
    l, g = jax.value_and_grad(loss)(p)
    return jax.tree.map(lambda a, b: a - 0.1 * b, p, g), l


reg("small_cnn_2x4", small_cnn, lambda r: (cnn_init(r), normal(r, (8, 12, 12, 1))), "2x4",
    ({"c1": P(), "c2": P(None, None, None, "model"), "fc": P("model")}, P("data")))
reg("small_cnn_train_dp_8", cnn_train,
    lambda r: (cnn_init(r), normal(r, (8, 12, 12, 1)), ints(r, (8,), 0, 10)), "8",
    ({"c1": P(), "c2": P(), "fc": P()}, P("data"), P("data")))
reg("cnn_uint8_images", lambda p, img: small_cnn(p, img.astype(jnp.float32)[..., None] / 255.0),
    lambda r: (cnn_init(r), ints(r, (8, 12, 12), 0, 256, np.uint8)), note="ui8 images argument")

reg("resnet_block_dp_8_long", resnet_block, lambda r: (rn_init(r, 64), X(r, n=64, h=32, c=64)),
    "8", ({k: P() for k in ("w1", "g1", "b1", "w2", "g2", "b2")}, P("data")), long=True)
