#pragma once
// The strip above the editor for a document from elsewhere: says that nothing is
// compiled or run until the user trusts it, lists the options and files it asks
// for, and offers to trust it.
#include "doc/DocumentRequests.hpp"

#include "NoticeStrip.hpp"

class QPushButton;

namespace kw {

class TrustBar : public NoticeStrip {
    Q_OBJECT
public:
    explicit TrustBar(QWidget* parent = nullptr);

    // Shows the bar for a document that asks for `requests`; `refusal` is why it
    // could not even be loaded in full (a source file outside its folder), if so.
    void showFor(const std::vector<DocumentRequest>& requests, const QString& refusal = {});
    QString text() const;
    QPushButton* trustButton() const { return trust_; }

signals:
    void trustRequested();

private:
    QPushButton* trust_;
};

} // namespace kw
