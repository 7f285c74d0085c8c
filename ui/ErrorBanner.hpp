#pragma once
// A dismissable strip above the editor that reports what went wrong with a
// run: a kernel fault, a crashed or hung runner, a refused document.
#include <QFrame>

class QLabel;

namespace kw {

class ErrorBanner : public QFrame {
    Q_OBJECT
public:
    explicit ErrorBanner(QWidget* parent = nullptr);
    void showError(const QString& title, const QString& detail);
    void showWarning(const QString& title, const QString& detail);
    QString text() const;

private:
    void showStyled(const QString& title, const QString& detail, const char* background, const char* border);
    QLabel* icon_;
    QLabel* label_;
};

} // namespace kw
