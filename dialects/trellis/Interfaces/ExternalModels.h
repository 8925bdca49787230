//===- ExternalModels.h - Sharding rules for upstream ops -------*- C++ -*-===//

#ifndef DIALECTS_TRELLIS_INTERFACES_EXTERNALMODELS_H
#define DIALECTS_TRELLIS_INTERFACES_EXTERNALMODELS_H

namespace mlir {
class DialectRegistry;
namespace trellis {

/// Attaches ShardingRuleOpInterface to upstream ops: elementwise arith and
/// math ops, arith.constant, every structured linalg op, and tensor.empty,
/// extract_slice, insert_slice, concat, pad, expand_shape, collapse_shape.
void registerShardingRuleExternalModels(DialectRegistry &registry);

} // namespace trellis
} // namespace mlir

#endif // DIALECTS_TRELLIS_INTERFACES_EXTERNALMODELS_H
