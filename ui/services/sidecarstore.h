#pragma once

#include "core/recording/run.h"
#include "core/report/notes.h"

#include <QObject>
#include <QString>

#include <memory>

namespace tf::ui {

// The bookmarks and notes of the open recording, kept in `<recording>.tracefold.json` beside it. Every edit is
// written at once, atomically (QSaveFile: a crash or a full disk leaves the previous sidecar whole). Only the sidecar
// is ever written; the recording is opened read-only by the core and never touched here.
class SidecarStore : public QObject
{
    Q_OBJECT

public:
    explicit SidecarStore(QObject *parent = nullptr);

    // Reads the sidecar beside `run` (none yet is fine). Returns false with `error` set when the file exists but
    // cannot be used; the store is then empty and read-only, so a broken sidecar is never overwritten.
    // A non-empty `readOnlyReason` opens nothing and keeps the store read-only (e.g. the bundled sample, which lives
    // inside the application and has no folder to keep a sidecar in).
    bool open(std::shared_ptr<const recording::Run> run, QString *error = nullptr, const QString &readOnlyReason = {});
    void close();

    const std::shared_ptr<const recording::Run> &run() const { return m_run; }
    const notes::Sidecar &sidecar() const { return m_sidecar; }
    const notes::Resolution &resolution() const { return m_resolution; }
    QString path() const { return m_path; }
    bool isWritable() const { return m_run && m_writable; }
    QString lastError() const { return m_lastError; }

    bool isBookmarked(std::size_t ordinal) const;
    // Returns the new state (true: now bookmarked).
    bool toggleBookmark(std::size_t ordinal);
    std::size_t addNote(const notes::Target &target, const QString &text);
    bool editNote(std::size_t index, const QString &text);
    bool removeNote(std::size_t index);

    // The target of a note on call `ordinal`, or on ledger row `row` of the ledger at that call.
    notes::Target callTarget(std::size_t ordinal) const;
    notes::Target ledgerRowTarget(std::size_t ordinal, std::size_t row) const;
    std::vector<std::size_t> notesOn(const notes::Target &target) const;

    // Writes the sidecar now. Edits call it themselves.
    bool save();

signals:
    void changed();
    void saveFailed(const QString &error);

private:
    void commitEdit();

    std::shared_ptr<const recording::Run> m_run;
    notes::Sidecar m_sidecar;
    notes::Resolution m_resolution;
    QString m_path;
    QString m_lastError;
    bool m_writable = false;
};

} // namespace tf::ui
