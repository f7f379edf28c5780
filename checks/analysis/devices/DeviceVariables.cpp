//===--- DeviceVariables.cpp - Device variables a statement can name ------===//
//
// Part of libtorch-tidy. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "analysis/devices/DeviceVariables.h"
#include "analysis/vocabulary/LibTorchCalls.h"
#include "analysis/vocabulary/LibTorchNames.h"
#include "utils/AstWalk.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::libtorch::analysis {

namespace {

bool isDeviceVariable(const ValueDecl *D) {
  return D && isRecordNamed(D->getType(), names::Device);
}

void addIfCuda(const ValueDecl *D, ASTContext &Context,
               llvm::SmallVectorImpl<const ValueDecl *> &Into) {
  if (!isDeviceVariable(D) || !D->getIdentifier())
    return;
  DeviceKind Kind = classifyDeviceDecl(D, Context);
  if (Kind == DeviceKind::Cuda || Kind == DeviceKind::MaybeCuda)
    Into.push_back(D);
}

} // namespace

DeviceKind classifyDeviceDecl(const ValueDecl *Device, ASTContext &Context) {
  const auto *Variable = dyn_cast_or_null<VarDecl>(Device);
  if (!Variable || isa<ParmVarDecl>(Variable))
    return DeviceKind::MaybeCuda;
  return classifyDeviceVariable(Variable, Context);
}

llvm::SmallVector<const ValueDecl *, 2>
cudaDeviceVariablesAt(const Stmt *At, ASTContext &Context,
                      const utils::UserCodeParents &Index) {
  llvm::SmallVector<const ValueDecl *, 2> Found;
  DynTypedNode Node = DynTypedNode::create(*At);
  for (unsigned Steps = 0; Steps < 256; ++Steps) {
    DynTypedNodeList Parents = Index.get(Node);
    if (Parents.empty())
      break;
    DynTypedNode Parent = Parents[0];
    if (const auto *Block = Parent.get<CompoundStmt>()) {
      const Stmt *Child = Node.get<Stmt>();
      llvm::SmallVector<const ValueDecl *, 2> InBlock;
      for (const Stmt *S : Block->body()) {
        if (S == Child)
          break;
        if (const auto *Decls = dyn_cast<DeclStmt>(S))
          for (const Decl *D : Decls->decls())
            addIfCuda(dyn_cast<VarDecl>(D), Context, InBlock);
      }
      Found.append(InBlock.rbegin(), InBlock.rend());
    } else if (const auto *Lambda = Parent.get<LambdaExpr>()) {
      for (const ParmVarDecl *Parameter :
           Lambda->getCallOperator()->parameters())
        addIfCuda(Parameter, Context, Found);
      if (Lambda->getCaptureDefault() == LCD_None)
        return Found;
    } else if (const auto *Function = Parent.get<FunctionDecl>()) {
      for (const ParmVarDecl *Parameter : Function->parameters())
        addIfCuda(Parameter, Context, Found);
      if (const auto *Method = dyn_cast<CXXMethodDecl>(Function);
          Method && !Method->isStatic())
        for (const FieldDecl *Field : Method->getParent()->fields())
          addIfCuda(Field, Context, Found);
      return Found;
    }
    Node = Parent;
  }
  return Found;
}

const Expr *asWritten(const Expr *E) {
  return utils::stripWrappers(E, utils::ImplicitWrappers |
                                     utils::ImplicitConversion);
}

bool readsCommandLineOrEnvironment(const Expr *E, ASTContext &Context) {
  struct Finder : RecursiveASTVisitor<Finder> {
    ASTContext &Context;
    unsigned Depth = 0;
    bool Found = false;
    explicit Finder(ASTContext &Context) : Context(Context) {}
    bool VisitCallExpr(CallExpr *Call) {
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (Callee->getIdentifier() && (Callee->getName() == "getenv" ||
                                        Callee->getName() == "secure_getenv"))
          Found = true;
      return !Found;
    }
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (const auto *Parameter = dyn_cast<ParmVarDecl>(Ref->getDecl())) {
        const auto *Function =
            dyn_cast_or_null<FunctionDecl>(Parameter->getDeclContext());
        if (Function && Function->isMain())
          Found = true;
      } else if (const auto *Variable = dyn_cast<VarDecl>(Ref->getDecl())) {
        if (Variable->hasLocalStorage() && Variable->getInit() && Depth < 4) {
          ++Depth;
          TraverseStmt(const_cast<Expr *>(Variable->getInit()));
          --Depth;
        }
      }
      return !Found;
    }
  } Visitor(Context);
  Visitor.TraverseStmt(const_cast<Expr *>(E));
  return Visitor.Found;
}

} // namespace clang::tidy::libtorch::analysis
