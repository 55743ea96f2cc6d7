# bsde: multistep BSDE solver. One binary with the omp and serial (g++) backends, and the cuda backend (nvcc) in a
# library beside it, bin/libbsde_cuda.so, opened where cuda is used.
#   make            build bin/bsde and the test runner
#   make run        build bin/bsde only and run the main job (see README)
#   make test       build both, check the include direction (tools/check_layers.sh), run every suite on every
#                   backend this machine can run, then a short round of the command-line fuzzer (bsde_fuzz)
# Overrides: SMS=90 (GPU architectures), dbg=1, CUDA_HOME=..., BUILD=build, NVCC=...

CUDA_HOME ?= /usr/local/cuda
SMS       ?= 90
BUILD     ?= build
CXX       ?= g++
NVCC      ?= $(shell command -v nvcc 2>/dev/null || (test -x $(CUDA_HOME)/bin/nvcc && echo $(CUDA_HOME)/bin/nvcc))
CCCL      ?= $(firstword $(wildcard $(CUDA_HOME)/include/cccl) $(CUDA_HOME)/include)
BOOST_LIB ?= $(firstword $(wildcard /usr/lib/$(shell $(CXX) -dumpmachine)) /usr/lib)

ifeq ($(dbg),1)
  OPT := -O0 -g
else
  OPT := -O3
endif

WARN     := -Wall -Wextra
CPPFLAGS := -I. -I$(CCCL) -MMD -MP
CXXFLAGS := -std=c++17 $(OPT) $(WARN)
# g++ translation units see Thrust with the C++ device system; each backend names its own
# system explicitly (thrust::cpp / thrust::omp / thrust::cuda vectors and policies).
HOST_THRUST := -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CPP
NVCCFLAGS := -std=c++17 $(OPT) $(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm)) \
             --expt-relaxed-constexpr -Xcompiler "$(WARN)" -Wno-deprecated-gpu-targets

BOOST_PO   := $(BOOST_LIB)/libboost_program_options.a
BOOST_TEST_HEADER := /usr/include/boost/test/included/unit_test.hpp

CORE_SRC := $(addprefix algorithms/,quadrature/gauss_hermite.cpp interpolation/cubic_spline.cpp \
              interpolation/spline_inverse_band.cpp scheme/settings.cpp scheme/grid.cpp scheme/multistep_weights.cpp \
              scheme/stability.cpp scheme/run_time.cpp scheme/slabs.cpp backends/backend.cpp backends/backend_serial.cpp \
              backends/backend_omp.cpp) \
            problems/registry.cpp
CLI_SRC  := src/cli.cpp src/options.cpp src/report.cpp src/output_files.cpp src/plots.cpp src/exercise_boundary_files.cpp \
            src/study.cpp src/study_output.cpp src/progress.cpp \
            src/bench.cpp src/build_info.cpp src/estimate.cpp src/result_checks.cpp src/batch_spec.cpp src/surface.cpp
TEST_SRC := $(wildcard tests/*.cpp)

BSDE  := $(BUILD)/bin/bsde
TESTS := $(BUILD)/bin/bsde_tests
# The cuda backend, a library beside them that they open on first use (algorithms/backends/cuda_entry.h); none
# without nvcc
CUDA_LIBRARY := $(if $(NVCC),$(BUILD)/bin/libbsde_cuda.so)

CORE_OBJ := $(CORE_SRC:%.cpp=$(BUILD)/%.o)
CLI_OBJ  := $(CLI_SRC:%.cpp=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.cpp=$(BUILD)/%.o)
# libgomp linked statically: the GPU host need not have it; -rdynamic: the cuda library takes the solver's other
# functions from the executable that opens it
LDLIBS   := -rdynamic -Wl,--push-state,-Bstatic -lgomp -Wl,--pop-state -lpthread -ldl

.PHONY: all run test deps clean FORCE
all: deps $(BSDE) $(TESTS)

# Boost.Program_options and Boost.Test from Debian, installed when missing and possible (else an error); gnuplot
# (the plots of bsde study, which writes its tables without it) likewise, else a note.
BOOST_PACKAGES := libboost-program-options-dev libboost-test-dev
deps:
	@if [ ! -f $(BOOST_PO) ] || [ ! -f $(BOOST_TEST_HEADER) ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing $(BOOST_PACKAGES)"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(BOOST_PACKAGES)) >/dev/null || exit 1; \
	  else \
	    echo "Boost is missing; run: sudo apt-get install -y $(BOOST_PACKAGES)" >&2; exit 1; \
	  fi; \
	fi
	@if ! command -v gnuplot >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	     (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnuplot-nox) >/dev/null; then \
	    echo "installed gnuplot-nox (the plots of bsde study)"; \
	  else \
	    echo "note: gnuplot is missing, so bsde study writes its tables without the plots; to have them: sudo apt-get install -y gnuplot-nox" >&2; \
	  fi; \
	fi
	@[ -d $(CCCL)/thrust ] || { echo "Thrust/CUB headers not found under $(CCCL); install the CUDA toolkit or set CUDA_HOME" >&2; exit 1; }
	@[ -n "$(NVCC)" ] || echo "no nvcc (not found, or NVCC set empty): building the omp and serial backends only"

$(BSDE): $(BUILD)/src/main.o $(CLI_OBJ) $(CORE_OBJ) | deps $(CUDA_LIBRARY)
	@mkdir -p $(@D)
	$(CXX) -o $@ $^ $(BOOST_PO) $(LDLIBS)

$(TESTS): $(TEST_OBJ) $(CLI_OBJ) $(CORE_OBJ) | deps $(CUDA_LIBRARY)
	@mkdir -p $(@D)
	$(CXX) -o $@ $^ $(BOOST_PO) $(LDLIBS)

# cudart linked in statically, cuSPARSE found through the rpath; NCCL (--gpus) opened with dlopen where it is used
$(CUDA_LIBRARY): $(BUILD)/algorithms/backends/backend_cuda.o $(BUILD)/algorithms/backends/nccl_links.o | deps
	@mkdir -p $(@D)
	$(CXX) -shared -o $@ $^ -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcusparse -lcudart_static \
	  -lrt -lpthread -ldl
$(BUILD)/algorithms/backends/backend_cuda.o $(BUILD)/algorithms/backends/nccl_links.o: NVCCFLAGS += -Xcompiler -fPIC

$(BUILD)/algorithms/backends/backend_omp.o: CXXFLAGS += -fopenmp

# The commit the binaries are built from (bsde --version; the records of bench and study name it), "-dirty" with
# uncommitted changes; build_commit.txt is rewritten only when it changes, so that build_info.o is rebuilt then.
BUILD_COMMIT := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
$(BUILD)/build_commit.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(BUILD_COMMIT)' | cmp -s - $@ || echo '$(BUILD_COMMIT)' > $@
$(BUILD)/src/build_info.o: $(BUILD)/build_commit.txt
$(BUILD)/src/build_info.o: CPPFLAGS += -DBSDE_BUILD_COMMIT='"$(BUILD_COMMIT)"'
FORCE:

$(BUILD)/%.o: %.cpp | deps
	@mkdir -p $(@D)
	$(CXX) $(CPPFLAGS) $(HOST_THRUST) $(CXXFLAGS) -c $< -o $@

$(BUILD)/%.o: %.cu | deps
	@mkdir -p $(@D)
	$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) -c $< -o $@

# The fuzzer of the command line and config files (tools/fuzz/cli_fuzz.cpp): it runs $(BSDE) as a child process on
# generated input. make test runs FUZZ_CASES cases of seed FUZZ_SEED; a long run: build/bin/bsde_fuzz --cases 20000
FUZZ       := $(BUILD)/bin/bsde_fuzz
FUZZ_CASES ?= 1000
FUZZ_SEED  ?= 48
all: $(FUZZ)
$(FUZZ): tools/fuzz/cli_fuzz.cpp
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -MMD -MP -o $@ $<

run: deps $(BSDE)
	$(BSDE) solve --config data/run.ini

test: all
	tools/check_layers.sh
	$(TESTS)
	$(FUZZ) --bsde $(BSDE) --cases $(FUZZ_CASES) --seed $(FUZZ_SEED)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
