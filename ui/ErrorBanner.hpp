#pragma once
// A dismissable strip above the editor that reports what went wrong with a
// run: a kernel fault, a crashed or hung runner, a refused document. It may
// carry one action (e.g. "Go to line 12"); its colours follow the palette.
#include <QFrame>

#include <functional>

class QLabel;
class QPushButton;

namespace kw {

class ErrorBanner : public QFrame {
    Q_OBJECT
public:
    explicit ErrorBanner(QWidget* parent = nullptr);
    void showError(const QString& title, const QString& detail);
    void showWarning(const QString& title, const QString& detail);
    // A button on the banner until the next message; call after show*.
    void setAction(const QString& text, std::function<void()> action);
    QString text() const;
    QString title() const { return isHidden() ? QString() : title_; }
    QPushButton* actionButton() const { return action_; }

protected:
    void changeEvent(QEvent* e) override;

private:
    void showStyled(const QString& title, const QString& detail);
    void applyColours();
    QLabel* icon_;
    QLabel* label_;
    QPushButton* action_;
    std::function<void()> onAction_;
    QString title_;
    bool error_ = true;
    bool applying_ = false; // inside applyColours
};

} // namespace kw
