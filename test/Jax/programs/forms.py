"""Programs of the other families printed in the other forms JAX and XLA
produce: GSPMD strings (jax_use_shardy_partitioner=False), Shardy round-trip
strings (the module through HLO and back, as XLA's dumps print it) and
jax.export's module (locations, default attributes left out)."""

import cnn, control, indexing, llama, mlp, moe, scan_remat, shardmap  # noqa: F401
from common import variant

for base in ["mlp_dptp_2x4", "mlp_train_adam_dptp_2x2x2", "decoder_layer_tp_2x4", "sm_psum_8",
             "sm_all_to_all_1x8", "sm_ppermute_ring_8", "sm_axis_index_2x4", "moe_capacity_2x4",
             "fori_loop_2x4", "cond_2x4", "top_k_2x4", "gather_rows_2x4", "sm_psum_scatter_2x4",
             "int32_arith_2x4"]:
    variant(base, "roundtrip")

for base in ["mlp_dp_2x4", "decoder_layer_tp_4x2", "sm_psum_scatter_2x4", "int32_arith",
             "scan_rnn_2x4", "kv_cache_decode_2x4", "sm_all_gather_2x4", "mlp_train_sgd_tp_4x2"]:
    variant(base, "export")

for base in ["mlp_train_adam_dp_2x4", "decoder_layer_tp_2x2x2", "sm_pmax_2x4",
             "sm_all_to_all_2x2x2", "scan_stack_remat_grad_2x4", "moe_capacity_2x4",
             "while_newton_8", "gather_rows_2x4", "one_hot_argmax_2x4", "sm_inside_jit_2x4",
             "sm_axis_index_2x4", "sm_psum_scatter_2x4"]:
    variant(base, "gspmd")

variant("sm_axis_index_psum_2x4", "gspmd")
variant("sm_axis_index_psum_2x4", "roundtrip")
