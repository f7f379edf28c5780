//===--- PerUnit.h - One value per translation unit -------------*- C++ -*-===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What a check holds while it checks one translation unit (facts, indexes,
// what it already reported), and nothing longer. Each value is built on
// first use from the ASTContext by the builder given with it; whatever else
// it is built from (a check's options, another per-unit value) the builder
// captures once, so that every use sees the same value. The check's
// UnitScope drops them all at the end of the translation unit: no check
// resets or clears its own.
//
//===----------------------------------------------------------------------===//

#ifndef LIBTORCH_TIDY_CHECKS_UTILS_PERUNIT_H
#define LIBTORCH_TIDY_CHECKS_UTILS_PERUNIT_H

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/SmallVector.h"
#include <functional>
#include <memory>
#include <type_traits>

namespace clang::tidy::libtorch::utils {

/// A value that lives for one translation unit.
class PerUnitValue {
public:
  virtual void reset() = 0;

protected:
  ~PerUnitValue() = default;
};

/// The per-unit values of one check, dropped together (the last made
/// first, as a value may refer to one made before it).
class UnitScope {
public:
  UnitScope() = default;
  UnitScope(const UnitScope &) = delete;
  UnitScope &operator=(const UnitScope &) = delete;
  void add(PerUnitValue &Value) { Values.push_back(&Value); }
  void end() {
    for (auto It = Values.rbegin(); It != Values.rend(); ++It)
      (*It)->reset();
  }

private:
  llvm::SmallVector<PerUnitValue *, 8> Values;
};

/// One \p T per translation unit: built on first use by the builder (by
/// default `T(ASTContext &)`, or `T()` for plain containers), rebuilt for
/// another ASTContext, dropped when its UnitScope ends.
template <typename T> class PerUnit final : public PerUnitValue {
public:
  using Builder = std::function<std::unique_ptr<T>(ASTContext &)>;

  explicit PerUnit(UnitScope &Scope, Builder Build = defaultBuilder())
      : Build(std::move(Build)) {
    Scope.add(*this);
  }
  PerUnit(const PerUnit &) = delete;
  PerUnit &operator=(const PerUnit &) = delete;

  T &get(ASTContext &Context) {
    if (!Value || For != &Context) {
      Value = Build(Context);
      For = &Context;
    }
    return *Value;
  }
  void reset() override {
    Value.reset();
    For = nullptr;
  }

private:
  static Builder defaultBuilder() {
    return [](ASTContext &Context) {
      if constexpr (std::is_constructible_v<T, ASTContext &>)
        return std::make_unique<T>(Context);
      else
        return std::make_unique<T>();
    };
  }

  Builder Build;
  std::unique_ptr<T> Value;
  const ASTContext *For = nullptr;
};

} // namespace clang::tidy::libtorch::utils

#endif // LIBTORCH_TIDY_CHECKS_UTILS_PERUNIT_H
