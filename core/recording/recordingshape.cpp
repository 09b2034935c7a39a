#include "recordingshape.h"

namespace tf::recording {

const char *shapeId(RecordingShape shape)
{
    switch (shape) {
    case RecordingShape::Recording:
        return "recording";
    case RecordingShape::Envelope:
        return "envelope";
    case RecordingShape::Reference:
        return "reference";
    case RecordingShape::BoundaryCapture:
        return "boundary-capture";
    case RecordingShape::NdjsonEvents:
        return "ndjson";
    }
    return "recording";
}

const char *shapeDescription(RecordingShape shape)
{
    switch (shape) {
    case RecordingShape::Recording:
        return "recording {snapshot, events, structure}";
    case RecordingShape::Envelope:
        return "envelope agentfootprint.recording.v1";
    case RecordingShape::Reference:
        return "byte-identity reference {commitLog, served}";
    case RecordingShape::BoundaryCapture:
        return "boundary-capture fixture";
    case RecordingShape::NdjsonEvents:
        return "NDJSON event log";
    }
    return "recording";
}

} // namespace tf::recording
