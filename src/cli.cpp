#include "cli.h"

#include <memory>

#include "../algorithms/backend.h"
#include "../algorithms/errors.h"
#include "options.h"
#include "report.h"

namespace bsde {
namespace {

int solve_command(const Invocation& invocation, std::ostream& out) {
    const Backend backend = invocation.backend_given ? invocation.backend : default_backend();
    const BackendOps& ops = backend_ops(backend);
    std::unique_ptr<AtomicOutputFile> csv;
    if (!invocation.output.empty()) csv = std::make_unique<AtomicOutputFile>(invocation.output);
    const SolveResult result = ops.solve(invocation.problem, invocation.settings);
    if (csv) {
        write_solution_csv(csv->stream(), result);
        csv->commit();
    }
    print_solve_report(out, invocation, result);
    return 0;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    try {
        const Invocation invocation = parse_invocation(args);
        if (invocation.help) {
            out << help_text();
            return 0;
        }
        if (invocation.command == "coefficients") print_coefficients(out, invocation.settings.K());
        else if (invocation.command == "grid") print_grid(out, invocation.settings);
        else if (invocation.command == "problems") print_problems(out);
        else return solve_command(invocation, out);
        return 0;
    } catch (const Error& e) {
        err << "bsde: error: " << e.what() << "\n";
        return e.exit_code();
    } catch (const std::exception& e) {
        err << "bsde: error: " << e.what() << "\n";
        return 4;
    }
}

}  // namespace bsde
