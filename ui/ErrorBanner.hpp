#pragma once
// A dismissable strip above the editor that reports what went wrong with a
// run: a kernel fault, a crashed or hung runner, a refused document; or, as
// information, what the user should know of a run that went right (a clean check), on
// one line, elided, whole in its tooltip.
// It may carry one action (e.g. "Go to line 12"); its colours follow the palette.
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
    void showInformation(const QString& title, const QString& detail);
    enum class Level { Error, Warning, Information };
    Level level() const { return level_; }
    // A button on the banner until the next message; call after show*.
    void setAction(const QString& text, std::function<void()> action);
    QString text() const; // the title and all of the detail, as rich text
    QLabel* label() const { return label_; }
    QString title() const { return isHidden() ? QString() : title_; }
    QPushButton* actionButton() const { return action_; }

protected:
    void changeEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void showStyled(Level level, const QString& title, const QString& detail);
    void applyColours();
    void fitInformation(); // the title and as much of the detail as fits one line
    QLabel* icon_;
    QLabel* label_;
    QPushButton* action_;
    std::function<void()> onAction_;
    QString title_;
    QString detail_;
    QString full_; // title and detail as text() returns them
    Level level_ = Level::Error;
    bool applying_ = false; // inside applyColours
};

} // namespace kw
