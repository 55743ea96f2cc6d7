// Links of slabs that share one memory (slab_link.h): the slabs of a split grid on a host backend, or all on one GPU
// (the test seam solve_in_slabs). The slabs' threads meet at each operation: each posts what it sends, all wait for
// each other, each copies what it receives from the matching sends (through its context: SlabEndpoint::copy), and all
// wait again, so that no slab changes a layer it sent before every copy of it is done.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "../core/errors.h"
#include "../sweep/slab_link.h"

namespace bsde {

class CopySlabLinks final : public SlabLinks {
public:
    explicit CopySlabLinks(int slabs) : slabs_(slabs), posted_(slabs), values_(slabs) {}
    int slabs() const override { return slabs_; }
    std::unique_ptr<SlabLink> link(int slab, const SlabEndpoint& endpoint) override {
        return std::make_unique<Link>(*this, slab, endpoint);
    }
    void abort() override {
        std::lock_guard<std::mutex> lock(mutex_);
        aborted_ = true;
        met_.notify_all();
    }

private:
    class Link final : public SlabLink {
    public:
        Link(CopySlabLinks& links, int slab, const SlabEndpoint& endpoint)
            : links_(links), slab_(slab), endpoint_(endpoint) {}

        void exchange(const std::vector<HaloTransfer>& transfers) override {
            endpoint_.synchronize();
            links_.posted_[slab_] = transfers;
            links_.meet();
            std::vector<int> taken(links_.slabs_, 0);  // receives from each peer so far
            for (const HaloTransfer& t : transfers) {
                if (!t.receive) continue;
                const HaloTransfer& sent = links_.send_to(slab_, t.peer, taken[t.peer]++);
                if (sent.count != t.count)
                    throw DefinitionError("a halo transfer of " + std::to_string(t.count) + " doubles met a send of " +
                                          std::to_string(sent.count));
                endpoint_.copy(sent.send, t.count, t.receive);
            }
            endpoint_.synchronize();
            links_.meet();
        }
        void add_up(double* values, int count) override {
            reduce(values, count, [](double a, double b) { return a + b; });
        }
        void take_largest(double* values, int count) override {
            reduce(values, count, [](double a, double b) { return a > b ? a : b; });
        }

    private:
        // Every slab combines the slabs' values in slab order, so that all take the same result.
        template <class Op>
        void reduce(double* values, int count, Op op) {
            std::vector<double>& mine = links_.values_[slab_];
            mine.resize(count);
            endpoint_.copy(values, count, mine.data());
            endpoint_.synchronize();
            links_.meet();
            std::vector<double> combined(links_.values_[0]);
            for (int g = 1; g < links_.slabs_; ++g)
                for (int k = 0; k < count; ++k) combined[k] = op(combined[k], links_.values_[g][k]);
            links_.meet();
            endpoint_.copy(combined.data(), count, values);
            endpoint_.synchronize();
        }

        CopySlabLinks& links_;
        int slab_;
        SlabEndpoint endpoint_;
    };

    // Slab `from`'s k-th send to slab `to` of the posted transfers.
    const HaloTransfer& send_to(int to, int from, int k) const {
        for (const HaloTransfer& t : posted_[from])
            if (t.send && t.peer == to && k-- == 0) return t;
        throw DefinitionError("slab " + std::to_string(to) + " expects a halo transfer that slab " +
                              std::to_string(from) + " does not send");
    }

    // Waits until every slab has arrived; throws once abort() was called.
    void meet() {
        std::unique_lock<std::mutex> lock(mutex_);
        const long generation = generation_;
        if (++arrived_ == slabs_) {
            arrived_ = 0;
            ++generation_;
            met_.notify_all();
        } else {
            met_.wait(lock, [&] { return generation_ != generation || aborted_; });
        }
        if (aborted_) throw SlabAborted();
    }

    int slabs_;
    std::vector<std::vector<HaloTransfer>> posted_;  // each slab's transfers of the exchange under way
    std::vector<std::vector<double>> values_;        // each slab's values of the reduction under way
    std::mutex mutex_;
    std::condition_variable met_;
    int arrived_ = 0;
    long generation_ = 0;
    bool aborted_ = false;
};

}  // namespace bsde
