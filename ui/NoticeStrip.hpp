#pragma once
// A strip of text above the editor in the tooltip's colours (the trust bar, the missing
// compiler), with one control at its right; hidden until there is something to say.
#include <QFrame>

class QLabel;

namespace kw {

class NoticeStrip : public QFrame {
public:
    NoticeStrip(const QString& objectName, QWidget* parent);

protected:
    // The control beside the text, at its top.
    void addControl(QWidget* control);

    QLabel* label_;
};

} // namespace kw
