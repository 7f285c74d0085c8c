#pragma once
// The fields of one step that is not a launch: a copy's buffers, offsets and count, a
// fill's buffer, value, offset and count, a swap's two buffers, a repeat's count or
// condition and limit, and its index; and every step's name. Only the fields of the
// step's kind are shown. A launch step shows its name only: its kernel, launch and
// arguments are edited in the Kernel picker and the Launch and Arguments panels.
#include "doc/Document.hpp"

#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;

namespace kw {

class StepForm : public QWidget {
    Q_OBJECT
public:
    explicit StepForm(QWidget* parent = nullptr);

    // Shows `step`; `buffers` are offered in the buffer fields. Emits nothing.
    void setStep(const StepSpec& step, const QStringList& buffers);
    // `step` with the fields of its kind as the form holds them.
    StepSpec applyTo(StepSpec step) const;

    QLineEdit* nameEdit() const { return name_; }
    QComboBox* firstBuffer() const { return first_; }   // copy's from, swap's first
    QComboBox* secondBuffer() const { return second_; } // copy's to, fill's buffer, swap's second
    QLineEdit* countEdit() const { return count_; }
    QLineEdit* valueEdit() const { return value_; }
    QLineEdit* timesEdit() const { return times_; }
    QLineEdit* untilEdit() const { return until_; }
    QLineEdit* limitEdit() const { return limit_; }
    QLineEdit* indexEdit() const { return index_; }

signals:
    // A field was changed by the user.
    void edited();

private:
    void showRow(QWidget* field, bool shown, const QString& label = {});

    QFormLayout* form_;
    QLineEdit* name_;
    QComboBox* first_;
    QComboBox* second_;
    QLineEdit* fromOffset_;
    QLineEdit* toOffset_;
    QLineEdit* count_;
    QLineEdit* value_;
    QLineEdit* times_;
    QLineEdit* until_;
    QLineEdit* limit_;
    QLineEdit* index_;
    QLabel* launchNote_;
};

} // namespace kw
