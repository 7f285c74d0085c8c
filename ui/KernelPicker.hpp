#pragma once
// Chooses which __global__ function of the source to run. Editable so a
// template kernel can be given its instantiation ("scale<float,128>").
#include "compile/KernelSignature.hpp"

#include <QComboBox>

#include <vector>

namespace kw {

class KernelPicker : public QComboBox {
    Q_OBJECT
public:
    explicit KernelPicker(QWidget* parent = nullptr);

    // Keeps the current choice when a kernel of that name still exists.
    void setKernels(const std::vector<KernelSignature>& kernels);
    const std::vector<KernelSignature>& kernels() const { return kernels_; }
    QString currentKernel() const; // as typed: may be an instantiation
    // Sets the choice without emitting kernelChanged.
    void setCurrentKernel(const QString& name);
    // The signature of the current choice, with template arguments substituted.
    std::optional<KernelSignature> currentSignature() const;

signals:
    void kernelChanged(const QString& name);

private:
    std::vector<KernelSignature> kernels_;
    QString last_;
};

} // namespace kw
