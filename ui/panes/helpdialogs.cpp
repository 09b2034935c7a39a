#include "ui/panes/helpdialogs.h"

#include "ui/widgets/glyphs.h"
#include "ui/widgets/theme.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace tf::ui {

namespace {

QString plainMenuText(QString text)
{
    // "&Go" -> "Go", "Find in &Run…" -> "Find in Run…"; a doubled "&&" is a literal ampersand.
    text.replace(QLatin1String("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    return text;
}

void addMenuShortcuts(QTreeWidget *tree, QTreeWidgetItem *parent, const QMenu *menu)
{
    for (QAction *a : menu->actions()) {
        if (a->menu()) {
            addMenuShortcuts(tree, parent, a->menu());
            continue;
        }
        QStringList keys;
        for (const QKeySequence &k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        if (keys.isEmpty())
            continue;
        auto *item = new QTreeWidgetItem(parent, {plainMenuText(a->text()), keys.join(QStringLiteral(", "))});
        item->setData(0, Qt::UserRole, a->objectName());
    }
}

QDialog *dialogWith(QWidget *parent, const QString &title, const QString &objectName, QWidget *content, int width)
{
    auto *dialog = new QDialog(parent);
    dialog->setObjectName(objectName);
    dialog->setWindowTitle(title);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(content);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog->resize(width, 640);
    return dialog;
}

} // namespace

QDialog *createShortcutsDialog(QMainWindow *window)
{
    auto *tree = new QTreeWidget;
    tree->setObjectName(QStringLiteral("shortcutsTree"));
    tree->setColumnCount(2);
    tree->setHeaderLabels({QObject::tr("Command"), QObject::tr("Keys")});
    tree->setRootIsDecorated(false);
    tree->setItemsExpandable(false);
    for (QAction *top : window->menuBar()->actions()) {
        if (!top->menu())
            continue;
        auto *group = new QTreeWidgetItem(tree, {plainMenuText(top->text())});
        QFont bold = group->font(0);
        bold.setBold(true);
        group->setFont(0, bold);
        group->setFirstColumnSpanned(true);
        addMenuShortcuts(tree, group, top->menu());
        if (group->childCount() == 0)
            delete group;
    }
    // Keys that belong to a view rather than a menu.
    auto *views = new QTreeWidgetItem(tree, {QObject::tr("In the Calls list and the strip chart")});
    views->setFirstColumnSpanned(true);
    QFont bold = views->font(0);
    bold.setBold(true);
    views->setFont(0, bold);
    for (const auto &[what, keys] :
         {std::pair{QObject::tr("Previous / next call"), QObject::tr("Up / Down, K / J")},
          std::pair{QObject::tr("First / last call"), QObject::tr("Home / End")},
          std::pair{QObject::tr("Back / forward through visited calls"), QObject::tr("Mouse back / forward buttons")}})
        new QTreeWidgetItem(views, {what, keys});
    tree->expandAll();
    tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    tree->header()->setStretchLastSection(false);
    return dialogWith(window, QObject::tr("Keyboard Shortcuts"), QStringLiteral("shortcutsDialog"), tree, 560);
}

QDialog *createLegendDialog(QWidget *parent)
{
    auto *tree = new QTreeWidget;
    tree->setObjectName(QStringLiteral("legendTree"));
    tree->setColumnCount(2);
    tree->setHeaderLabels({QObject::tr("Mark"), QObject::tr("Meaning")});
    tree->setRootIsDecorated(false);
    tree->setWordWrap(true);
    tree->setIconSize(QSize(18, 18));
    struct Entry
    {
        Glyph glyph;
        const char *name;
        const char *meaning;
    };
    static const Entry kEntries[] = {
        {Glyph::CacheReusable, QT_TR_NOOP("Prefix reusable"),
         QT_TR_NOOP("Tools and system block unchanged since the previous call, and the provider reported cache use.")},
        {Glyph::CacheReusableUnmeasured, QT_TR_NOOP("Could reuse, not measured"),
         QT_TR_NOOP("Unchanged prefix, but the provider reported no cache usage: a reuse was possible, not shown.")},
        {Glyph::CacheRewritten, QT_TR_NOOP("Prefix rewritten"),
         QT_TR_NOOP("The tools or the system block changed: everything after them is written to the cache again.")},
        {Glyph::CacheUnknown, QT_TR_NOOP("Cache unknown"),
         QT_TR_NOOP("The first call, or a prefix that is not on record.")},
        {Glyph::Miss, QT_TR_NOOP("Cache miss"),
         QT_TR_NOOP("The provider reported cache usage and read nothing from the cache (strip chart).")},
        {Glyph::Verified, QT_TR_NOOP("Verified"),
         QT_TR_NOOP("The rebuilt part hashes to the value the run's own receipt committed.")},
        {Glyph::Reconstructed, QT_TR_NOOP("Reconstructed"),
         QT_TR_NOOP("Rebuilt from the record but not witnessed by a hash.")},
        {Glyph::Damaged, QT_TR_NOOP("Damaged"),
         QT_TR_NOOP("The record contradicts itself: the rebuilt bytes differ from the committed hash.")},
        {Glyph::NotOnRecord, QT_TR_NOOP("Not on record"),
         QT_TR_NOOP("The recording does not hold it; never the same as none. Also marks redacted values.")},
        {Glyph::LedgerChanged, QT_TR_NOOP("Ledger changed"), QT_TR_NOOP("Rows were filed in the findings ledger.")},
        {Glyph::Collapsed, QT_TR_NOOP("Collapsed"),
         QT_TR_NOOP("A tool result sent as a short ticket instead of its content (judged noise or ruled out).")},
        {Glyph::Undeclared, QT_TR_NOOP("Undeclared"),
         QT_TR_NOOP("A tool result the model has not yet judged in the ledger (armed runs only).")},
        {Glyph::ToolError, QT_TR_NOOP("Tool error"),
         QT_TR_NOOP("A tool the response asked for threw; the model was sent the error text.")},
        {Glyph::NeverReturned, QT_TR_NOOP("No response / never returned"),
         QT_TR_NOOP("The call has no response on record, or a tool it asked for never returned.")},
        {Glyph::ProblemError, QT_TR_NOOP("Problem: error"),
         QT_TR_NOOP("The audit found an error at this call (Problems dock): the run failed, no response, damage.")},
        {Glyph::ProblemWarning, QT_TR_NOOP("Problem: warning"),
         QT_TR_NOOP("The audit found a warning: a tool error, a limit hit, a cache rewrite streak, a conflict.")},
        {Glyph::ProblemInfo, QT_TR_NOOP("Problem: note"),
         QT_TR_NOOP("The audit noted something worth a look: a pause, a gap past the cache TTL.")},
        {Glyph::Bookmark, QT_TR_NOOP("Bookmark"), QT_TR_NOOP("You bookmarked the call (Ctrl+B).")},
        {Glyph::Note, QT_TR_NOOP("Note"), QT_TR_NOOP("You wrote a note on the call or a ledger row.")},
    };
    for (const Entry &e : kEntries) {
        auto *item = new QTreeWidgetItem(tree, {QObject::tr(e.name), QObject::tr(e.meaning)});
        item->setIcon(0, glyphIcon(e.glyph));
        item->setData(0, Qt::UserRole, int(e.glyph));
        item->setToolTip(1, QObject::tr(e.meaning));
    }
    struct ToneEntry
    {
        theme::Tone tone;
        const char *name;
        const char *meaning;
    };
    static const ToneEntry kTones[] = {
        {theme::Tone::Good, QT_TR_NOOP("Bluish green"), QT_TR_NOOP("Verified, reusable, cache read.")},
        {theme::Tone::Info, QT_TR_NOOP("Blue"), QT_TR_NOOP("Reconstructed; the model's words; piece bytes.")},
        {theme::Tone::Bad, QT_TR_NOOP("Vermillion"), QT_TR_NOOP("Damaged, a cache miss, an error, a conflict.")},
        {theme::Tone::Warn, QT_TR_NOOP("Orange"), QT_TR_NOOP("Collapsed, clipped or overflowing; cache write.")},
        {theme::Tone::Neutral, QT_TR_NOOP("Grey"), QT_TR_NOOP("Not on record, unknown.")},
        {theme::Tone::Accent, QT_TR_NOOP("Reddish purple"),
         QT_TR_NOOP("Ledger changes, rows filed at this call, bookmarks and notes.")},
    };
    for (const ToneEntry &t : kTones) {
        QPixmap swatch(18, 18);
        swatch.fill(theme::strong(t.tone, tree->palette()));
        auto *item = new QTreeWidgetItem(tree, {QObject::tr(t.name), QObject::tr(t.meaning)});
        item->setIcon(0, QIcon(swatch));
    }
    tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree->header()->setStretchLastSection(true);
    // Wide enough for each meaning on one line: a tree view elides rather than wraps.
    return dialogWith(parent, QObject::tr("Legend"), QStringLiteral("legendDialog"), tree, 900);
}

} // namespace tf::ui
