#include "ExportDialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace kw {

using exporting::ExportTarget;

ExportDialog::ExportDialog(const QString& documentPath, QWidget* parent)
    : QDialog(parent)
    , documentPath_(documentPath)
    , target_(new QComboBox(this))
    , folder_(new QLineEdit(this))
{
    setWindowTitle(tr("Export as a program"));
    setMinimumWidth(520);
    target_->setObjectName("exportTarget");
    target_->addItem(tr("CuPy (Python, NVRTC)"), int(ExportTarget::Cupy));
    target_->addItem(tr("PyCUDA (Python, nvcc)"), int(ExportTarget::Pycuda));
    target_->addItem(tr("C++ (driver API and NVRTC, CMake)"), int(ExportTarget::Cpp));
    folder_->setObjectName("exportFolder");
    auto* browse = new QPushButton(tr("Browse…"), this);
    browse->setObjectName("exportBrowse");
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(folder_, 1);
    folderRow->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("&Target:"), target_);
    auto* folderLabel = new QLabel(tr("&Folder:"), this);
    folderLabel->setBuddy(folder_);
    form->addRow(folderLabel, folderRow);
    auto* note = new QLabel(tr("Writes a program that reproduces this document's run: the source, the inputs, "
                               "every launch, the checks and the timing, with a README. Nothing is run."),
                            this);
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(note);
    layout->addLayout(form);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(target_, &QComboBox::currentIndexChanged, this, [this] {
        if (!folderEdited_)
            proposeFolder();
    });
    connect(folder_, &QLineEdit::textEdited, this, [this] { folderEdited_ = true; });
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export folder"), folder_->text());
        if (!dir.isEmpty()) {
            folder_->setText(dir);
            folderEdited_ = true;
        }
    });
    connect(folder_, &QLineEdit::textChanged, this, [buttons, this] {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(!folder_->text().trimmed().isEmpty());
    });
    proposeFolder();
}

void ExportDialog::proposeFolder()
{
    const QFileInfo doc(documentPath_);
    const QString base
        = documentPath_.isEmpty() ? QDir::homePath() + "/untitled" : doc.absolutePath() + '/' + doc.completeBaseName();
    folder_->setText(base + '-' + exporting::toString(target()));
}

ExportTarget ExportDialog::target() const { return ExportTarget(target_->currentData().toInt()); }

QString ExportDialog::folder() const { return folder_->text().trimmed(); }

} // namespace kw
