#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

namespace tf::generate {

// A deliberate flaw written into the recording while the receipts keep the hashes of what was really sent, so a
// verifier must find exactly that part Damaged and everything else Verified.
struct Damage
{
    enum class Kind {
        None,
        MessageByte, // one byte of one committed message's content (the tool result of `call`'s first tool call)
        PieceRow,    // one character of a ledger row the findings piece quotes (filed before `call`)
        SchemaByte,  // one byte of one tool description at `call`
    };
    Kind kind = Kind::None;
    int call = 0; // 1-based epoch the damage is aimed at
};

struct GeneratorOptions
{
    int calls = 12;
    std::uint64_t seed = 1;
    // Average size of a tool result in bytes; results vary from a fifth to twice this.
    std::size_t resultBytes = 900;
    // iteration_end events carry the full history (as agentfootprint writes them); that makes a file grow with the
    // square of the call count, so very long runs may leave it out (the key is optional in the format).
    bool historyInIterationEnd = true;
    // Long runs: keep at most this many messages in the history (0 = unbounded). Older tool rounds are evicted
    // for budget, the history is then written with `set` (it no longer extends the old value) and the next receipt
    // lists the evicted turns' hashes in `omittedForAttention`.
    std::size_t historyWindow = 0;
    // Long runs: every this many calls a new user turn starts and the findings ledger starts empty (0 = never).
    int turnCalls = 0;
    Damage damage;
};

// Writes a valid shape-A recording ({snapshot, events, structure}) of an armed agentfootprint run: a delta-mode
// commit log whose history grows call by call, tool results of varied size, a findings ledger holding every row
// kind, provider usage with cache reads and writes, and a receipt per call. Deterministic by seed.
//
// The receipts are hashed from the generator's own in-memory request (the messages it sent, the system text it
// joined, the schemas it offered), never from the folded log, so they are independent of the loader and verifier.
void writeRecording(std::ostream &out, const GeneratorOptions &options);
std::string generateRecording(const GeneratorOptions &options);

} // namespace tf::generate
