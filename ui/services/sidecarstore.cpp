#include "ui/services/sidecarstore.h"

#include <QFileInfo>
#include <QSaveFile>

namespace tf::ui {

SidecarStore::SidecarStore(QObject *parent)
    : QObject(parent)
{
}

bool SidecarStore::open(std::shared_ptr<const recording::Run> run, QString *error, const QString &readOnlyReason)
{
    close();
    if (!run)
        return false;
    m_run = std::move(run);
    m_path = QString::fromStdString(notes::sidecarPathFor(m_run->path));
    if (!readOnlyReason.isEmpty()) {
        m_lastError = readOnlyReason;
        m_writable = false;
        m_resolution = notes::resolve(m_sidecar, *m_run);
        emit changed();
        return true;
    }
    notes::ReadResult read = notes::readSidecarFile(notes::sidecarPathFor(m_run->path));
    if (!read.error.empty()) {
        m_lastError = QString::fromStdString(read.error);
        if (error)
            *error = m_lastError;
        m_writable = false;
        m_resolution = notes::resolve(m_sidecar, *m_run);
        emit changed();
        return false;
    }
    m_writable = true;
    if (read.sidecar)
        m_sidecar = std::move(*read.sidecar);
    m_resolution = notes::resolve(m_sidecar, *m_run);
    emit changed();
    return true;
}

void SidecarStore::close()
{
    m_run.reset();
    m_sidecar = {};
    m_resolution = {};
    m_path.clear();
    m_lastError.clear();
    m_writable = false;
}

bool SidecarStore::isBookmarked(std::size_t ordinal) const
{
    return m_run && ordinal < m_run->calls.size() &&
           notes::isBookmarked(m_sidecar, notes::callRefOf(m_run->calls[ordinal]));
}

bool SidecarStore::toggleBookmark(std::size_t ordinal)
{
    if (!isWritable() || ordinal >= m_run->calls.size())
        return false;
    const bool now = notes::toggleBookmark(m_sidecar, notes::callRefOf(m_run->calls[ordinal]), notes::nowUtcIso8601());
    commitEdit();
    return now;
}

notes::Target SidecarStore::callTarget(std::size_t ordinal) const
{
    notes::Target t;
    t.kind = notes::TargetKind::Call;
    if (m_run && ordinal < m_run->calls.size())
        t.call = notes::callRefOf(m_run->calls[ordinal]);
    return t;
}

notes::Target SidecarStore::ledgerRowTarget(std::size_t ordinal, std::size_t row) const
{
    notes::Target t = callTarget(ordinal);
    t.kind = notes::TargetKind::LedgerRow;
    t.rowIndex = row;
    if (m_run && ordinal < m_run->calls.size())
        if (const std::optional<json::Value> ledger = m_run->ledgerAt(m_run->calls[ordinal]);
            ledger && row < ledger->size())
            if (const json::Value *id = ledger->at(row).isObject() ? ledger->at(row).findString("toolCallId") : nullptr)
                t.toolCallId = std::string(id->asString());
    return t;
}

std::vector<std::size_t> SidecarStore::notesOn(const notes::Target &target) const
{
    return notes::notesOn(m_sidecar, target);
}

std::size_t SidecarStore::addNote(const notes::Target &target, const QString &text)
{
    if (!isWritable())
        return std::size_t(-1);
    notes::Note note;
    note.target = target;
    note.text = text.toStdString();
    note.created = notes::nowUtcIso8601();
    notes::addNote(m_sidecar, std::move(note));
    commitEdit();
    return m_sidecar.notes.size() - 1;
}

bool SidecarStore::editNote(std::size_t index, const QString &text)
{
    if (!isWritable() || !notes::editNote(m_sidecar, index, text.toStdString()))
        return false;
    commitEdit();
    return true;
}

bool SidecarStore::removeNote(std::size_t index)
{
    if (!isWritable() || !notes::removeNote(m_sidecar, index))
        return false;
    commitEdit();
    return true;
}

void SidecarStore::commitEdit()
{
    m_resolution = notes::resolve(m_sidecar, *m_run);
    save();
    emit changed();
}

bool SidecarStore::save()
{
    if (!isWritable())
        return false;
    // The identity is refreshed on every write, so the sidecar always names the bytes it was written beside.
    m_sidecar.recording = notes::identityOf(*m_run);
    const std::string bytes = notes::serializeSidecar(m_sidecar);
    QSaveFile file(m_path);
    // flush() before commit(): Qt 6.4's commit() renames a file whose buffered write failed (disk full, EFBIG) over
    // the previous sidecar; a failed flush leaves it uncommitted, and the destructor discards it.
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()) ||
        !file.flush() || !file.commit()) {
        m_lastError = tr("Cannot save notes to %1: %2").arg(m_path, file.errorString());
        emit saveFailed(m_lastError);
        return false;
    }
    m_lastError.clear();
    return true;
}

} // namespace tf::ui
