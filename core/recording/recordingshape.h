#pragma once

namespace tf::recording {

// spec/recording.md §1.1: the shapes Tracefold opens. Trace (F), audit bundle (G) and zip (H) are refused by name.
enum class RecordingShape
{
    Recording,       // A: {snapshot?, events, structure|blueprint?}
    Envelope,        // B: agentfootprint.recording.v1 around A
    Reference,       // C: {commitLog, served}
    BoundaryCapture, // D: {note, runId, runInput, commits, subflowResults, finalState, events}
    NdjsonEvents,    // E: one event per line
};

// Stable identifiers used by `inspect --json` ("format") and the GUI.
const char *shapeId(RecordingShape shape);
const char *shapeDescription(RecordingShape shape);

} // namespace tf::recording
