#pragma once

#include "ui/services/callbundle.h"

#include <QWidget>

class QToolButton;

namespace tf::ui {

class ElidedLabel;
class TranscriptModel;
class TranscriptView;

// The conversation at the selected call, read as a chat (TranscriptView over TranscriptModel): a line that says how
// many messages were sent and how many are new since the previous call, and the messages, scrolled to the first new.
class TranscriptPane : public QWidget
{
    Q_OBJECT

public:
    explicit TranscriptPane(QWidget *parent = nullptr);

    void setBundle(const BundleHandle &bundle);
    TranscriptModel *model() const { return m_model; }
    TranscriptView *view() const { return m_view; }
    QString summaryText() const;

private:
    TranscriptModel *m_model = nullptr;
    TranscriptView *m_view = nullptr;
    ElidedLabel *m_summary = nullptr;
    QToolButton *m_unfold = nullptr;
};

} // namespace tf::ui
