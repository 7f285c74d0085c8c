#include "RunnerEditDialog.hpp"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace kw {

RunnerEditDialog::RunnerEditDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Add a runner"));
    name_ = new QLineEdit(this);
    name_->setPlaceholderText(tr("lab GPU"));
    command_ = new QLineEdit(this);
    command_->setPlaceholderText(tr("ssh gpu-server kwb-run serve"));
    command_->setMinimumWidth(420);
    auto* help = new QLabel(tr("Any command line that starts <tt>kwb-run serve</tt>, for example<br>"
                               "<tt>ssh user@gpu-server kwb-run serve</tt> or<br>"
                               "<tt>ssh login-node srun --gres=gpu:1 kwb-run serve</tt>.<br>"
                               "SSH must log in with a key, without asking for a password."),
                            this);
    help->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto* ok = buttons->button(QDialogButtonBox::Ok);
    ok->setEnabled(false);
    auto update = [this, ok] { ok->setEnabled(!name().isEmpty() && !command().isEmpty()); };
    connect(name_, &QLineEdit::textChanged, this, update);
    connect(command_, &QLineEdit::textChanged, this, update);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Name"), name_);
    form->addRow(tr("Command"), command_);
    form->addRow(help);
    form->addRow(buttons);
}

QString RunnerEditDialog::name() const { return name_->text().trimmed(); }
QString RunnerEditDialog::command() const { return command_->text().trimmed(); }

} // namespace kw
