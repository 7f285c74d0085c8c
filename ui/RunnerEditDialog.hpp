#pragma once
// Asks for a saved runner's name and the command line that starts `kwb-run serve`
// where the GPU is (docs/remote.md).
#include <QDialog>

class QLineEdit;

namespace kw {

class RunnerEditDialog : public QDialog {
    Q_OBJECT
public:
    explicit RunnerEditDialog(QWidget* parent = nullptr);
    QString name() const;
    QString command() const;

private:
    QLineEdit* name_;
    QLineEdit* command_;
};

} // namespace kw
