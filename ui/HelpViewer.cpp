#include "HelpViewer.hpp"

#include "HelpPages.hpp"
#include "ThemeColours.hpp"

#include <QDesktopServices>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace kw {

HelpViewer::HelpViewer(QWidget* parent)
    : QWidget(parent, Qt::Window)
    , contents_(new QListWidget(this))
    , browser_(new QTextBrowser(this))
    , error_(new QLabel(this))
    , back_(new QToolButton(this))
    , forward_(new QToolButton(this))
{
    setWindowTitle(tr("Kernel Workbench Help"));
    setObjectName("helpViewer");
    back_->setText(tr("◀ Back"));
    forward_->setText(tr("Forward ▶"));
    auto* home = new QToolButton(this);
    home->setText(tr("Contents"));
    back_->setEnabled(false);
    forward_->setEnabled(false);
    auto* bar = new QHBoxLayout;
    bar->addWidget(back_);
    bar->addWidget(forward_);
    bar->addWidget(home);
    bar->addStretch();

    const QPalette pal = palette();
    error_->setStyleSheet(QString("QLabel { background: %1; padding: 6px; }")
                              .arg(ThemeColours::tint(pal, ThemeColours::error(pal), 0.3).name()));
    error_->setWordWrap(true);
    error_->hide();

    for (const QString& page : HelpPages::contents()) {
        auto* item = new QListWidgetItem(HelpPages::title(page), contents_);
        item->setData(Qt::UserRole, page);
    }
    int widest = 0;
    for (int i = 0; i < contents_->count(); ++i)
        widest = std::max(widest, contents_->fontMetrics().horizontalAdvance(contents_->item(i)->text()));
    contents_->setMinimumWidth(std::min(widest + 32, 320));
    browser_->setOpenLinks(false); // every link goes through followLink
    browser_->document()->setDocumentMargin(12);

    auto* right = new QWidget(this);
    auto* rv = new QVBoxLayout(right);
    rv->setContentsMargins(0, 0, 0, 0);
    rv->addWidget(error_);
    rv->addWidget(browser_, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(contents_);
    split->addWidget(right);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(browser_, &QTextBrowser::anchorClicked, this, &HelpViewer::followLink);
    connect(browser_, &QTextBrowser::backwardAvailable, back_, &QWidget::setEnabled);
    connect(browser_, &QTextBrowser::forwardAvailable, forward_, &QWidget::setEnabled);
    connect(browser_, &QTextBrowser::historyChanged, this, &HelpViewer::pageShown); // Back and Forward too
    connect(back_, &QToolButton::clicked, browser_, &QTextBrowser::backward);
    connect(forward_, &QToolButton::clicked, browser_, &QTextBrowser::forward);
    connect(home, &QToolButton::clicked, this, [this] { openPage(HelpPages::contentsPage); });
    connect(contents_, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { openPage(item->data(Qt::UserRole).toString()); });
    connect(contents_, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { openPage(item->data(Qt::UserRole).toString()); });
    resize(960, 680);
}

bool HelpViewer::openPage(const QString& page)
{
    if (!HelpPages::exists(page)) {
        showError(tr("The help page “%1” is missing from this installation. The other pages are in the contents "
                     "on the left.")
                      .arg(page));
        return false;
    }
    error_->hide();
    browser_->setSource(HelpPages::url(page), QTextDocument::MarkdownResource);
    pageShown();
    return true;
}

void HelpViewer::followLink(const QUrl& link)
{
    if (link.scheme() == "http" || link.scheme() == "https" || link.scheme() == "mailto") {
        emit externalLinkOpened(link);
        QDesktopServices::openUrl(link);
        return;
    }
    const QUrl target = browser_->source().resolved(link);
    const QString page = HelpPages::pageOf(target);
    if (page.isEmpty()) {
        showError(tr("The link “%1” leads nowhere the help can show.").arg(link.toString()));
        return;
    }
    if (openPage(page) && target.hasFragment())
        browser_->scrollToAnchor(target.fragment());
}

QString HelpViewer::currentPage() const { return HelpPages::pageOf(browser_->source()); }

QString HelpViewer::error() const { return error_->isHidden() ? QString() : error_->text(); }

void HelpViewer::showError(const QString& message)
{
    error_->setText(message);
    error_->show();
}

// The contents list follows the page, also when Back or Forward changed it.
void HelpViewer::pageShown()
{
    const QString page = currentPage();
    setWindowTitle(tr("%1 — Kernel Workbench Help").arg(HelpPages::title(page)));
    const QSignalBlocker quiet(contents_);
    contents_->clearSelection();
    for (int i = 0; i < contents_->count(); ++i)
        if (contents_->item(i)->data(Qt::UserRole).toString() == page)
            contents_->setCurrentRow(i);
}

} // namespace kw
