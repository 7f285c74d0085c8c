#pragma once
// File > Export…: the target (CuPy, PyCUDA, C++) and the folder to write the program to.
// Only asks; DocumentController writes through core/export's DocumentExport.
#include "export/ExportFiles.hpp"

#include <QDialog>
#include <QString>

class QComboBox;
class QLineEdit;

namespace kw {

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    // `documentPath`: where the document lies (may be empty); the folder is proposed beside it.
    explicit ExportDialog(const QString& documentPath, QWidget* parent = nullptr);
    exporting::ExportTarget target() const;
    QString folder() const;

private:
    void proposeFolder();

    QString documentPath_;
    QComboBox* target_;
    QLineEdit* folder_;
    bool folderEdited_ = false;
};

} // namespace kw
