#include "ui/panes/notesdialog.h"

#include "ui/services/sidecarstore.h"

#include "core/findings/ledgerfold.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace tf::ui {

namespace {

QString rowLabel(const json::Value &row, std::size_t index)
{
    const auto member = [&](std::string_view key) {
        const json::Value *v = row.isObject() ? row.findString(key) : nullptr;
        return v ? QString::fromStdString(std::string(v->asString())) : QString();
    };
    QString label = QObject::tr("Row #%1 \u00B7 %2")
                        .arg(index)
                        .arg(QString::fromLatin1(findings::rowKindName(findings::rowKindOf(row))));
    if (const QString id = member("toolCallId"); !id.isEmpty())
        label += QObject::tr(" \u00B7 tool:%1").arg(id);
    if (const QString standing = member("standing"); !standing.isEmpty())
        label += QObject::tr(" \u00B7 %1").arg(standing);
    return label;
}

} // namespace

NotesDialog::NotesDialog(SidecarStore *store, std::size_t ordinal, std::optional<std::size_t> row, QWidget *parent)
    : QDialog(parent)
    , m_store(store)
    , m_ordinal(ordinal)
{
    setObjectName(QStringLiteral("notesDialog"));
    const auto &run = store->run();
    const int epoch = run && ordinal < run->calls.size() ? run->calls[ordinal].epoch : 0;
    setWindowTitle(tr("Notes on Call %1").arg(epoch));

    m_target = new QComboBox(this);
    m_target->setObjectName(QStringLiteral("noteTarget"));
    m_target->addItem(tr("Call %1 itself").arg(epoch), -1);
    if (run && ordinal < run->calls.size())
        if (const std::optional<json::Value> ledger = run->ledgerAt(run->calls[ordinal]))
            for (std::size_t i = 0; i < ledger->size(); ++i)
                m_target->addItem(rowLabel(ledger->at(i), i), int(i));
    if (row) {
        const int at = m_target->findData(int(*row));
        if (at >= 0)
            m_target->setCurrentIndex(at);
    }

    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("noteList"));
    m_list->setWordWrap(true);
    m_editor = new QPlainTextEdit(this);
    m_editor->setObjectName(QStringLiteral("noteEditor"));
    m_editor->setPlaceholderText(tr("What should a reviewer know here?"));
    m_add = new QPushButton(tr("&Add Note"), this);
    m_add->setObjectName(QStringLiteral("addNote"));
    m_update = new QPushButton(tr("&Update Selected"), this);
    m_update->setObjectName(QStringLiteral("updateNote"));
    m_delete = new QPushButton(tr("&Delete Selected"), this);
    m_delete->setObjectName(QStringLiteral("deleteNote"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("noteStatus"));
    m_status->setWordWrap(true);

    auto *form = new QFormLayout;
    form->addRow(tr("Attach to:"), m_target);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_update);
    buttons->addWidget(m_delete);
    buttons->addStretch();
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_editor, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(close);
    resize(560, 480);

    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_target, &QComboBox::currentIndexChanged, this, &NotesDialog::refill);
    connect(m_list, &QListWidget::currentRowChanged, this, &NotesDialog::selectionChanged);
    connect(m_add, &QPushButton::clicked, this, &NotesDialog::addNote);
    connect(m_update, &QPushButton::clicked, this, &NotesDialog::updateNote);
    connect(m_delete, &QPushButton::clicked, this, &NotesDialog::deleteNote);
    connect(m_store, &SidecarStore::saveFailed, this, [this](const QString &error) { m_status->setText(error); });
    refill();
}

notes::Target NotesDialog::currentTarget() const
{
    const int row = m_target->currentData().toInt();
    return row < 0 ? m_store->callTarget(m_ordinal) : m_store->ledgerRowTarget(m_ordinal, std::size_t(row));
}

void NotesDialog::refill()
{
    m_list->clear();
    m_shown = m_store->notesOn(currentTarget());
    for (std::size_t index : m_shown) {
        const notes::Note &n = m_store->sidecar().notes[index];
        auto *item = new QListWidgetItem(QString::fromStdString(n.text), m_list);
        item->setToolTip(tr("Written %1").arg(QString::fromStdString(n.created)));
    }
    const bool writable = m_store->isWritable();
    m_add->setEnabled(writable);
    m_editor->setReadOnly(!writable);
    if (!writable)
        m_status->setText(m_store->lastError().isEmpty() ? tr("No recording is open.") : m_store->lastError());
    else
        m_status->setText(tr("Saved in %1").arg(m_store->path()));
    selectionChanged();
}

void NotesDialog::selectionChanged()
{
    const bool selected = m_list->currentRow() >= 0 && m_store->isWritable();
    m_update->setEnabled(selected);
    m_delete->setEnabled(selected);
    if (m_list->currentRow() >= 0)
        m_editor->setPlainText(m_list->currentItem()->text());
}

void NotesDialog::addNote()
{
    const QString text = m_editor->toPlainText().trimmed();
    if (text.isEmpty())
        return;
    m_store->addNote(currentTarget(), text);
    m_editor->clear();
    refill();
}

void NotesDialog::updateNote()
{
    const int row = m_list->currentRow();
    if (row < 0 || std::size_t(row) >= m_shown.size())
        return;
    const QString text = m_editor->toPlainText().trimmed();
    if (text.isEmpty())
        return;
    m_store->editNote(m_shown[std::size_t(row)], text);
    refill();
}

void NotesDialog::deleteNote()
{
    const int row = m_list->currentRow();
    if (row < 0 || std::size_t(row) >= m_shown.size())
        return;
    m_store->removeNote(m_shown[std::size_t(row)]);
    m_editor->clear();
    refill();
}

} // namespace tf::ui
