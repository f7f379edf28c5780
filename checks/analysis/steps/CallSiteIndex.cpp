//===--- CallSiteIndex.cpp - The calls of each function of a unit ---------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/steps/CallSiteIndex.h"
#include "utils/UserCode.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::libtorch::analysis {

namespace {

/// The class of the object a virtual call goes through, when \p Call
/// dispatches at run time; null for a call that runs the method it names.
const CXXRecordDecl *dispatchingClass(const CallExpr &Call,
                                      const LangOptions &Language) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
  if (!Member)
    return nullptr;
  const auto *Callee = dyn_cast_or_null<MemberExpr>(Member->getCallee());
  const CXXMethodDecl *Method = Member->getMethodDecl();
  if (!Callee || !Method || !Method->isVirtual() ||
      !Callee->performsVirtualDispatch(Language))
    return nullptr;
  return Member->getRecordDecl();
}

/// The class \p Call makes an object of with std::make_unique,
/// std::make_shared or std::allocate_shared (its construction is in the
/// standard library's code, which the index does not walk).
const CXXRecordDecl *madeByFactory(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !Callee->isInStdNamespace() || !Callee->getIdentifier())
    return nullptr;
  const llvm::StringRef Name = Callee->getName();
  if (Name != "make_unique" && Name != "make_shared" &&
      Name != "allocate_shared")
    return nullptr;
  const TemplateArgumentList *Arguments =
      Callee->getTemplateSpecializationArgs();
  if (!Arguments || Arguments->size() == 0 ||
      Arguments->get(0).getKind() != TemplateArgument::Type)
    return nullptr;
  return Arguments->get(0).getAsType()->getAsCXXRecordDecl();
}

/// Every method \p Method overrides, through the overrides in between.
void forEachOverridden(const CXXMethodDecl *Method,
                       llvm::function_ref<void(const CXXMethodDecl *)> Do) {
  for (const CXXMethodDecl *Overridden : Method->overridden_methods()) {
    Do(Overridden);
    forEachOverridden(Overridden, Do);
  }
}

/// What index() needs from the unit's user code, in one traversal.
class UnitCalls : public RecursiveASTVisitor<UnitCalls> {
public:
  UnitCalls(const LangOptions &Language,
            llvm::DenseMap<const FunctionDecl *,
                           llvm::SmallVector<const CallExpr *, 2>> &Sites,
            llvm::DenseSet<const FunctionDecl *> &CalledPatterns)
      : Sites(Sites), CalledPatterns(CalledPatterns), Language(Language) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBodies() const { return true; }

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    Sites[Callee->getCanonicalDecl()].push_back(Call);
    if (const FunctionDecl *Pattern = Callee->getTemplateInstantiationPattern())
      CalledPatterns.insert(Pattern->getCanonicalDecl());
    if (const CXXRecordDecl *Through = dispatchingClass(*Call, Language))
      Virtual[Callee->getCanonicalDecl()].push_back({Call, Through});
    if (const CXXRecordDecl *Made = madeByFactory(*Call))
      Constructed.insert(Made->getCanonicalDecl());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    // A base class's part of a derived object is not an object of its own.
    if (Construct->getConstructionKind() == CXXConstructionKind::Complete)
      Constructed.insert(
          Construct->getConstructor()->getParent()->getCanonicalDecl());
    return true;
  }
  bool VisitCXXMethodDecl(CXXMethodDecl *Method) {
    if (Method->size_overridden_methods() > 0 &&
        Method->doesThisDeclarationHaveABody())
      Overrides.push_back(Method);
    return true;
  }

  /// True when an object of \p Class, or of a class derived from it, is
  /// made in this unit.
  bool madeHere(const CXXRecordDecl *Class) const {
    return llvm::any_of(Constructed, [Class](const CXXRecordDecl *Made) {
      return Made == Class->getCanonicalDecl() || Made->isDerivedFrom(Class);
    });
  }
  /// True when an object made in this unit runs \p Override for its
  /// method: one of its class, or of a derived class that does not
  /// override it again.
  bool runsForObjectMadeHere(const CXXMethodDecl *Override) const {
    const CXXRecordDecl *Class = Override->getParent();
    return llvm::any_of(Constructed, [&](const CXXRecordDecl *Made) {
      if (Made != Class->getCanonicalDecl() && !Made->isDerivedFrom(Class))
        return false;
      const CXXMethodDecl *Final =
          Override->getCorrespondingMethodInClass(Made, /*MayBeBase=*/true);
      return Final && Final->getCanonicalDecl() == Override->getCanonicalDecl();
    });
  }

  /// The calls of each callee (canonical), and the templates' patterns
  /// (canonical) whose instantiations are called: CallSiteIndex's.
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<const CallExpr *, 2>>
      &Sites;
  llvm::DenseSet<const FunctionDecl *> &CalledPatterns;
  /// Virtual calls by the method they name (canonical), with the class
  /// they go through.
  llvm::DenseMap<
      const FunctionDecl *,
      llvm::SmallVector<std::pair<const CallExpr *, const CXXRecordDecl *>, 1>>
      Virtual;
  /// The overrides defined in user code.
  llvm::SmallVector<const CXXMethodDecl *, 4> Overrides;

private:
  const LangOptions &Language;
  /// The classes of the objects made in user code (canonical).
  llvm::SmallPtrSet<const CXXRecordDecl *, 8> Constructed;
};

} // namespace

llvm::ArrayRef<const CallExpr *>
CallSiteIndex::sitesOf(const FunctionDecl *Function) {
  if (!Indexed)
    index();
  auto Found = Sites.find(Function->getCanonicalDecl());
  if (Found == Sites.end())
    return {};
  return Found->second;
}

bool CallSiteIndex::isPatternCalled(const FunctionDecl *Pattern) {
  if (!Indexed)
    index();
  return CalledPatterns.contains(Pattern->getCanonicalDecl());
}

bool CallSiteIndex::dispatchesTo(const CallExpr *Site,
                                 const FunctionDecl *Override) {
  if (!Indexed)
    index();
  return Dispatches.contains({Site, Override->getCanonicalDecl()});
}

void CallSiteIndex::index() {
  Indexed = true;
  UnitCalls Visitor(Context.getLangOpts(), Sites, CalledPatterns);
  // Only user code: LibTorch's headers hold no calls of the user's functions.
  for (Decl *TopLevel : utils::userTopLevelDecls(Context))
    Visitor.TraverseDecl(TopLevel);

  for (const CXXMethodDecl *Override : Visitor.Overrides) {
    const CXXRecordDecl *Class = Override->getParent();
    const FunctionDecl *Key = Override->getCanonicalDecl();
    forEachOverridden(Override, [&](const CXXMethodDecl *Overridden) {
      auto Calls = Visitor.Virtual.find(Overridden->getCanonicalDecl());
      if (Calls == Visitor.Virtual.end())
        return;
      for (const auto &[Call, Through] : Calls->second)
        // Only an object of a class derived from the one the call goes
        // through may run this override; and where the unit makes objects
        // of that hierarchy, only one of a class it makes (a sampler for
        // tests that the unit never creates is not the one it samples).
        if (Class->isDerivedFrom(Through) &&
            (Visitor.runsForObjectMadeHere(Override) ||
             !Visitor.madeHere(Through)) &&
            Dispatches.insert({Call, Key}).second)
          Sites[Key].push_back(Call);
    });
  }
}

} // namespace clang::tidy::libtorch::analysis
