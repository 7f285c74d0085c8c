#include "StepForm.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>

namespace kw {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
std::string text(const QLineEdit* e) { return e->text().trimmed().toStdString(); }
std::string text(const QComboBox* c) { return c->currentText().trimmed().toStdString(); }
} // namespace

StepForm::StepForm(QWidget* parent)
    : QWidget(parent)
{
    form_ = new QFormLayout(this);
    form_->setContentsMargins(0, 2, 0, 2);
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto line = [this](const QString& tip) {
        auto* e = new QLineEdit(this);
        e->setToolTip(tip);
        connect(e, &QLineEdit::textEdited, this, &StepForm::edited);
        return e;
    };
    auto buffer = [this] {
        auto* c = new QComboBox(this);
        c->setEditable(true);
        c->setInsertPolicy(QComboBox::NoInsert);
        connect(c, &QComboBox::activated, this, &StepForm::edited);
        connect(c->lineEdit(), &QLineEdit::textEdited, this, &StepForm::edited);
        return c;
    };
    name_ = line(tr("Shown with the step's timings and in its errors (optional)"));
    first_ = buffer();
    second_ = buffer();
    fromOffset_ = line(tr("The first element copied (expression; empty: 0)"));
    toOffset_ = line(tr("The first element written (expression; empty: 0)"));
    count_ = line(tr("How many elements (expression; empty: all)"));
    value_ = line(tr("What every element becomes (expression)"));
    times_ = line(tr("How many passes (expression of the variables)"));
    until_ = line(tr("Checked after each pass: the loop ends when it is true (not 0). Buffers read as "
                     "functions: changed(0) is element 0 of buffer changed"));
    limit_ = line(tr("At most this many passes: a condition that never holds stops the run here"));
    index_ = line(tr("A name for the pass number (0, 1, ...) in the inner steps' expressions (optional)"));
    launchNote_ = new QLabel(tr("The kernel is chosen above the editor; the launch and the arguments are edited in the "
                                "Launch and Arguments panels."),
                             this);
    launchNote_->setWordWrap(true);
    launchNote_->setEnabled(false);
    form_->addRow(tr("name"), name_);
    for (QWidget* w : std::initializer_list<QWidget*>{first_, second_, fromOffset_, toOffset_, count_, value_, times_,
                                                      until_, limit_, index_})
        form_->addRow(QStringLiteral("-"), w);
    form_->addRow(launchNote_);
    setStep(StepSpec{}, {});
}

void StepForm::showRow(QWidget* field, bool shown, const QString& label)
{
    form_->setRowVisible(field, shown);
    if (auto* l = qobject_cast<QLabel*>(form_->labelForField(field)); l && !label.isEmpty())
        l->setText(label);
}

void StepForm::setStep(const StepSpec& s, const QStringList& buffers)
{
    using K = StepSpec::Kind;
    for (QComboBox* c : {first_, second_}) {
        const QSignalBlocker quiet(c);
        c->clear();
        c->addItems(buffers);
    }
    first_->setEditText(q(s.from));
    second_->setEditText(q(s.to));
    name_->setText(q(s.name));
    fromOffset_->setText(q(s.fromOffset));
    toOffset_->setText(q(s.toOffset));
    count_->setText(q(s.count));
    value_->setText(q(s.value));
    times_->setText(q(s.times));
    until_->setText(q(s.until));
    limit_->setText(q(s.limit));
    index_->setText(q(s.index));

    const K k = s.kind;
    showRow(first_, k == K::Copy || k == K::Swap, k == K::Copy ? tr("copy from") : tr("swap"));
    showRow(second_, k == K::Copy || k == K::Fill || k == K::Swap,
            k == K::Copy       ? tr("to")
                : k == K::Fill ? tr("fill")
                               : tr("with"));
    showRow(fromOffset_, k == K::Copy, tr("from offset"));
    showRow(toOffset_, k == K::Copy || k == K::Fill, k == K::Copy ? tr("to offset") : tr("offset"));
    showRow(count_, k == K::Copy || k == K::Fill, tr("count"));
    showRow(value_, k == K::Fill, tr("value"));
    showRow(times_, k == K::Repeat, tr("passes"));
    showRow(until_, k == K::RepeatUntil, tr("until"));
    showRow(limit_, k == K::RepeatUntil, tr("limit"));
    showRow(index_, k == K::Repeat || k == K::RepeatUntil, tr("index"));
    form_->setRowVisible(launchNote_, k == K::Launch);
}

StepSpec StepForm::applyTo(StepSpec s) const
{
    using K = StepSpec::Kind;
    s.name = text(name_);
    switch (s.kind) {
    case K::Launch: break;
    case K::Copy:
        s.from = text(first_);
        s.to = text(second_);
        s.fromOffset = text(fromOffset_);
        s.toOffset = text(toOffset_);
        s.count = text(count_);
        break;
    case K::Fill:
        s.to = text(second_);
        s.value = text(value_);
        s.toOffset = text(toOffset_);
        s.count = text(count_);
        break;
    case K::Swap:
        s.from = text(first_);
        s.to = text(second_);
        break;
    case K::Repeat:
        s.times = text(times_);
        s.index = text(index_);
        break;
    case K::RepeatUntil:
        s.until = text(until_);
        s.limit = text(limit_);
        s.index = text(index_);
        break;
    }
    return s;
}

} // namespace kw
