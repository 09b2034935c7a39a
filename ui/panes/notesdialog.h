#pragma once

#include "core/report/notes.h"

#include <QDialog>

#include <optional>
#include <vector>

class QComboBox;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QLabel;

namespace tf::ui {

class SidecarStore;

// Notes on one call and on the ledger rows at that call. "Attach to" picks the call itself or one ledger row (listed
// with its kind, tool call and standing); the list shows the notes already on that target; the editor adds a note or
// changes the selected one. Every change is saved by the store at once.
class NotesDialog : public QDialog
{
    Q_OBJECT

public:
    // `ordinal` is the call; `row`, when given, preselects that ledger row.
    NotesDialog(SidecarStore *store, std::size_t ordinal, std::optional<std::size_t> row = std::nullopt,
                QWidget *parent = nullptr);

    notes::Target currentTarget() const;

private:
    void refill();
    void selectionChanged();
    void addNote();
    void updateNote();
    void deleteNote();

    SidecarStore *m_store;
    std::size_t m_ordinal;
    QComboBox *m_target = nullptr;
    QListWidget *m_list = nullptr;
    QPlainTextEdit *m_editor = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_update = nullptr;
    QPushButton *m_delete = nullptr;
    QLabel *m_status = nullptr;
    std::vector<std::size_t> m_shown; // note indices of the list rows
};

} // namespace tf::ui
