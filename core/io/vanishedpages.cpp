#include "vanishedpages.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

namespace tf::io::vanishedpages {

namespace {

// One guarded mapping. The handler may run on any thread while another registers or releases a slot, so a slot is
// a seqlock: `sequence` is odd while its range is being written, and the handler trusts a range only when it read
// the same even sequence before and after it. The faulting mapping's own slot cannot change under the handler (its
// reader holds the MappedFile alive), so skipping a slot that is being written never misses the owner.
struct Slot
{
    std::atomic<bool> taken{false};
    std::atomic<std::uint64_t> sequence{0};
    std::atomic<std::uintptr_t> begin{0};
    std::atomic<std::size_t> length{0}; // 0: nothing guarded
    std::atomic<bool> vanished{false};
};

Slot g_slots[kMaxGuarded];
struct sigaction g_previous
{
};
std::uintptr_t g_pageSize = 4096;
std::once_flag g_installOnce;

static_assert(std::atomic<std::uintptr_t>::is_always_lock_free && std::atomic<std::uint64_t>::is_always_lock_free,
              "the SIGBUS handler reads the table with lock-free atomics only");

// Hands a fault that is not ours to whoever handled SIGBUS before: their handler, or the default action, which the
// re-executed read then triggers (the process dies as it would have without the guard).
void chain(int signal, siginfo_t *info, void *context)
{
    if ((g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_sigaction) {
        g_previous.sa_sigaction(signal, info, context);
        return;
    }
    if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(signal);
        return;
    }
    // SIG_IGN cannot hold for a fault (the read would fault forever): both fall back to the default action.
    struct sigaction defaultAction
    {
    };
    defaultAction.sa_handler = SIG_DFL;
    sigemptyset(&defaultAction.sa_mask);
    ::sigaction(SIGBUS, &defaultAction, nullptr);
}

// Async-signal-safe: atomics and one mmap call (a system call with no library state). errno is preserved for the
// interrupted code.
void onBusError(int signal, siginfo_t *info, void *context)
{
    // si_code <= 0: sent by kill() or raise(), not a fault on a page.
    if (info && info->si_code > 0) {
        const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
        for (Slot &slot : g_slots) {
            const std::uint64_t before = slot.sequence.load(std::memory_order_acquire);
            if (before & 1)
                continue;
            const std::uintptr_t begin = slot.begin.load(std::memory_order_relaxed);
            const std::size_t length = slot.length.load(std::memory_order_relaxed);
            std::atomic_thread_fence(std::memory_order_acquire);
            if (slot.sequence.load(std::memory_order_relaxed) != before || length == 0 || address < begin ||
                address - begin >= length)
                continue;
            // From the faulting page to the end of the mapping: the file ends before this page now, so every later
            // page is gone too. Pages before it still read the file; a later fault there comes here again.
            const std::uintptr_t from = address & ~(g_pageSize - 1);
            const std::uintptr_t to = (begin + length + g_pageSize - 1) & ~(g_pageSize - 1);
            const int savedErrno = errno;
            void *zeros = ::mmap(reinterpret_cast<void *>(from), to - from, PROT_READ,
                                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
            errno = savedErrno;
            if (zeros == MAP_FAILED)
                break; // cannot repair it: die as before rather than fault forever
            slot.vanished.store(true, std::memory_order_release);
            return;
        }
    }
    chain(signal, info, context);
}

void install()
{
    g_pageSize = std::uintptr_t(::sysconf(_SC_PAGESIZE));
    struct sigaction action
    {
    };
    action.sa_sigaction = &onBusError;
    // SA_ONSTACK: a thread that set up an alternate signal stack (a sanitizer does) keeps using it.
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, &g_previous);
}

} // namespace

int guard(const void *begin, std::size_t length)
{
    std::call_once(g_installOnce, install);
    for (std::size_t i = 0; i < kMaxGuarded; ++i) {
        Slot &slot = g_slots[i];
        bool expected = false;
        if (!slot.taken.compare_exchange_strong(expected, true, std::memory_order_acq_rel))
            continue;
        slot.sequence.fetch_add(1, std::memory_order_acq_rel); // odd: being written
        slot.vanished.store(false, std::memory_order_relaxed);
        slot.begin.store(reinterpret_cast<std::uintptr_t>(begin), std::memory_order_relaxed);
        slot.length.store(length, std::memory_order_relaxed);
        slot.sequence.fetch_add(1, std::memory_order_release); // even: readable
        return int(i);
    }
    return -1;
}

void release(int slot)
{
    if (slot < 0 || std::size_t(slot) >= kMaxGuarded)
        return;
    Slot &s = g_slots[slot];
    s.sequence.fetch_add(1, std::memory_order_acq_rel);
    s.length.store(0, std::memory_order_relaxed);
    s.begin.store(0, std::memory_order_relaxed);
    s.sequence.fetch_add(1, std::memory_order_release);
    s.taken.store(false, std::memory_order_release);
}

bool vanished(int slot)
{
    return slot >= 0 && std::size_t(slot) < kMaxGuarded && g_slots[slot].vanished.load(std::memory_order_acquire);
}

} // namespace tf::io::vanishedpages
