# gputui - GNU Make, non-recursive.
#   make            build build/gputui: with the GPU back-end when the CUDA
#                   toolkit is found, else the replay viewer (CUDA=0|1 chooses)
#   make run        build and start the TUI
#   make test       unit tests (ASan+UBSan, and ThreadSanitizer), the structure
#                   (tests/layers.py), the docs (tests/docs.py), the batch
#                   outputs (tests/golden) and end-to-end tests, at once; no GPU
#   make test-e2e   end-to-end tests only
#   make test-golden  batch outputs against tests/golden/digests
#   make test-layers the folders' rules and no files that call each other
#   make test-tsan  unit tests and the replay TUI under ThreadSanitizer
#   make check-portable  core/, ui/ and main.c as POSIX C, with gcc and clang
#   make test-gpu   GPU suite (needs a CUDA GPU); make test-gpu-memcheck
#   make bench      measurement fidelity and responsiveness table (GPU)
#   make soak       1000 random changes, nothing leaked (GPU)
#   make install PREFIX=$HOME/.local, make uninstall (no root needed)
#   make dist       gputui-VERSION.tar.gz: sources, recordings, lessons
#   make deb        build/deb/gputui_VERSION_ARCH.deb (no root, no GPU needed)
#   make easybuild  install through scripts/packages/gputui.eb (EB_PREFIX=...)
#   make check-cuda  the GPU back-end's host code against the headers of every
#                   CUDA toolkit from 11.7 to 13.x, and the choice of architectures
#   make check-aarch64  the viewer and the unit tests for aarch64, run under qemu
# Variables: CUDA=0|1, CUDA_HOME, GPU_ARCH="80 90" (default: what nvcc lists,
# one of each family from sm_60; PTX for the last), WERROR=1, CC, PREFIX, BUILD.

CC       ?= cc
PREFIX   ?= /usr/local
BUILD    ?= build
PKG_CONFIG ?= pkg-config
VERSION  := $(shell sed -n 's/^#define GT_VERSION "\(.*\)"/\1/p' include/gputui/base/common.h)
UNAME_S  := $(shell uname -s)
ifeq ($(UNAME_S),Darwin)
# Homebrew keeps its ncurses out of pkg-config's way (macOS has an older one).
BREW_NCURSES := $(shell brew --prefix ncurses 2>/dev/null)
ifneq ($(BREW_NCURSES),)
PKG_CONFIG := PKG_CONFIG_PATH=$(BREW_NCURSES)/lib/pkgconfig:$$PKG_CONFIG_PATH $(PKG_CONFIG)
endif
endif

# The CUDA toolkit: CUDA_HOME, or the directory above an nvcc on PATH.
ifeq ($(origin CUDA_HOME),undefined)
CUDA_HOME := $(or $(wildcard /usr/local/cuda),$(patsubst %/bin/nvcc,%,$(shell command -v nvcc 2>/dev/null)),/usr/local/cuda)
endif
NVCC     ?= $(CUDA_HOME)/bin/nvcc
# CUDA=1: the GPU back-end (src/gpu/, kernels/, the experiments' GPU sides, cudart); CUDA=0: the replay
# viewer, which replays, compares and runs lessons from recordings.
ifeq ($(origin CUDA),undefined)
CUDA := $(if $(and $(wildcard $(NVCC)),$(wildcard $(CUDA_HOME)/include/cuda_runtime_api.h)),1,0)
VIEWER_WHY := $(if $(wildcard $(NVCC)),$(CUDA_HOME)/include has no cuda_runtime_api.h,$(if \
              $(filter-out undefined,$(origin CUDA_HOME)),CUDA_HOME=$(CUDA_HOME) holds no bin/nvcc,no \
              CUDA toolkit (no nvcc in /usr/local/cuda or on PATH)))
else
VIEWER_WHY := CUDA=0
endif
ifneq ($(filter-out 0 1,$(CUDA)),)
$(error CUDA=$(CUDA): allowed values are 0 (the replay viewer) and 1 (the GPU back-end))
endif
ifeq ($(CUDA),0)
ifeq ($(filter clean uninstall dist deps deps-test check-cuda,$(MAKECMDGOALS)),)
$(info gputui: $(VIEWER_WHY): building the replay viewer (recordings, compare, lessons); install the toolkit for live measurements)
endif
endif

# The architectures: what this nvcc lists (scripts/gpu-arch.sh says how it
# chooses), or GPU_ARCH, checked against that list. Said once, not again
# by the makes that make test starts.
ifeq ($(CUDA),1)
ARCH_QUIET := $(if $(filter 0,$(MAKELEVEL)),0,1)
ifeq ($(origin GPU_ARCH),undefined)
GPU_ARCH := $(shell GT_ARCH_QUIET=$(ARCH_QUIET) scripts/gpu-arch.sh '$(NVCC)')
else
override GPU_ARCH := $(shell GT_ARCH_QUIET=$(ARCH_QUIET) scripts/gpu-arch.sh '$(NVCC)' '$(GPU_ARCH)')
ifeq ($(GPU_ARCH),)
$(error GPU_ARCH refused (see above))
endif
endif
NVCC_RELEASE := $(shell '$(NVCC)' --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9.]*\),.*/\1/p')
endif

LAST_ARCH := $(lastword $(GPU_ARCH))
GENCODE  := $(foreach a,$(GPU_ARCH),-gencode=arch=compute_$(a),code=sm_$(a)) \
            -gencode=arch=compute_$(LAST_ARCH),code=compute_$(LAST_ARCH)

# A warning option this compiler knows (gcc's and clang's sets differ).
cc-option = $(shell $(CC) -Werror $(1) -x c -c -o /dev/null /dev/null 2>/dev/null && echo $(1))
# gputui cuts snprintf output to its buffers on purpose; gcc warns of it.
WARN     := -Wall -Wextra -Wshadow -Wno-missing-field-initializers \
            $(call cc-option,-Wno-format-truncation)
ifeq ($(WERROR),1)
WARN     += -Werror
endif
CPPFLAGS += -Iinclude -Isrc -D_FILE_OFFSET_BITS=64 \
            $(shell $(PKG_CONFIG) --cflags jansson zlib 2>/dev/null)
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 $(WARN) -pthread
NCURSES_CFLAGS := $(shell $(PKG_CONFIG) --cflags ncursesw 2>/dev/null)
NCURSES_LIBS   := $(or $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null),$(if $(filter Darwin,$(UNAME_S)),-lncurses,-lncursesw))
CMOCKA_CFLAGS  := $(shell $(PKG_CONFIG) --cflags cmocka 2>/dev/null)
CMOCKA_LIBS    := $(or $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null),-lcmocka)
ifeq ($(UNAME_S),Darwin)
# Darwin hides O_NOFOLLOW and its own calls from files that ask for POSIX.
CPPFLAGS += -D_DARWIN_C_SOURCE
STATIC_LIBS    := $(or $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null),-ljansson) -lz
else
# jansson, zlib and cudart are linked statically: the binary needs none on the
# target machine; the CUDA driver and NVML are loaded at run time.
STATIC_LIBS    := -Wl,-Bstatic -ljansson -lz -Wl,-Bdynamic
endif
ifeq ($(CUDA),1)
ifeq ($(CUDART),)
CUDA_INC       := $(CUDA_HOME)/include
CUDA_LIBS      := -L$(CUDA_HOME)/lib64 -lcudart_static -ldl -lrt -lpthread -lstdc++
CUDART_LINK    := static
else
# CUDART=DIR: the host side built against DIR/include and linked with
# DIR/lib's shared libcudart, copied beside the binary: another toolkit's
# runtime (scripts/cuda-headers.sh fetches 11.7 to 13.5 from the package
# registry), to run its API paths on a GPU; the kernels still come from
# $(NVCC).
CUDART_SO      := $(firstword $(wildcard $(CUDART)/lib/libcudart.so.*))
ifeq ($(CUDART_SO),)
$(error CUDART=$(CUDART): no lib/libcudart.so.* there (scripts/cuda-headers.sh DIR fetches one))
endif
CUDA_INC       := $(CUDART)/include
CUDA_LIBS      := $(BUILD)/$(notdir $(CUDART_SO)) -Wl,-rpath,'$$ORIGIN' -ldl -lrt -lpthread -lstdc++
CUDART_LINK    := shared, $(CUDART)
# nvcc 13's launch stubs call __cudaLaunchKernel, which older runtimes lack;
# its legacy stubs call cudaLaunchKernel, which every runtime has (the macro
# must reach the host compiler too, which compiles the stubs last).
NVCC_LAUNCH    := -D__NV_LEGACY_LAUNCH -Xcompiler -D__NV_LEGACY_LAUNCH
endif
endif
NVCCFLAGS ?= -O3
NVCCFLAGS += -std=c++17 -Iinclude $(GENCODE) -Xcompiler -Wall $(NVCC_LAUNCH)
# main.c alone knows which build it is.
MAIN_DEFS := -DGT_WITH_CUDA=$(CUDA) -DGT_GPU_ARCH='"$(GPU_ARCH)"' -DGT_CUDART_LINK='"$(CUDART_LINK)"'
# The back-end names the architectures when a GPU has no code here.
GPU_DEFS  := -DGT_GPU_ARCH='"$(GPU_ARCH)"'

# An experiment's folder, src/experiments/NAME/: its table row and what
# the row shares (NAME.c, NAME.h) build with core/; its GPU side
# (NAME_gpu*.c) and kernels (NAME.cu) with the CUDA back-end alone.
EXP_GPU_SRC := $(wildcard src/experiments/*/*_gpu*.c)
EXP_ROW_SRC := $(filter-out $(EXP_GPU_SRC),$(wildcard src/experiments/*/*.c))
CORE_SRC := $(wildcard src/core/*/*.c) $(EXP_ROW_SRC)
UI_SRC   := $(wildcard src/ui/*.c)
ifeq ($(CUDA),1)
GPU_SRC  := $(wildcard src/gpu/*.c) $(EXP_GPU_SRC)
CU_SRC   := $(wildcard kernels/*.cu) $(wildcard src/experiments/*/*.cu)
endif

CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o)
GPU_OBJ  := $(GPU_SRC:%.c=$(BUILD)/%.o)
UI_OBJ   := $(UI_SRC:%.c=$(BUILD)/%.o)
CU_OBJ   := $(CU_SRC:%.cu=$(BUILD)/%.o)
ifeq ($(CUDA),1)
# The runtime experiment's op=jit loads kernels/memory.cu's module as
# cubins and as PTX: both images, embedded as C arrays.
CU_OBJ   += $(BUILD)/jit/images.o
endif
MAIN_OBJ := $(BUILD)/src/main.o
# Beside main.c: what it opens before it hands over (sources.c).
TOP_SRC  := $(filter-out src/main.c,$(wildcard src/*.c))
TOP_OBJ  := $(TOP_SRC:%.c=$(BUILD)/%.o)
BIN      := $(BUILD)/gputui

# Unit tests: core/ only, built with AddressSanitizer and UBSan.
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/san/%) $(BUILD)/san/test_port_posix
SAN_CORE := $(CORE_SRC:%.c=$(BUILD)/san/%.o)

# ThreadSanitizer: the unit tests, and gputui itself for the replay TUI
# (the worker thread, the sample queue and the UI consumer); make test-tsan.
TSAN      := -fsanitize=thread -fno-omit-frame-pointer $(call cc-option,-Wno-tsan)
TSAN_CORE := $(CORE_SRC:%.c=$(BUILD)/tsan/%.o)
TSAN_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tsan/%)
TSAN_ALL  := $(TSAN_CORE) $(GPU_SRC:%.c=$(BUILD)/tsan/%.o) $(UI_SRC:%.c=$(BUILD)/tsan/%.o) \
             $(BUILD)/tsan/src/main.o $(TOP_SRC:%.c=$(BUILD)/tsan/%.o)

.SECONDARY:
.PHONY: all run test test-build test-tsan test-e2e test-golden golden-update test-layers check-portable check-cuda check-aarch64 \
        print-gpu-arch \
        test-gpu soak test-gpu-memcheck nocode \
        bench recordings fuzz deps deps-test install uninstall dist deb easybuild clean
all: $(BIN)

deps:
	@CUDA=$(CUDA) scripts/deps.sh build
deps-test:
	@CUDA=$(CUDA) scripts/deps.sh test

# The kind of build the objects in $(BUILD) were made for: when CUDA
# changes, what depends on it (main.o, the binaries) is made again.
KIND := $(BUILD)/kind
# The architectures too: when they change, the kernels are made again.
KIND_NOW := cuda=$(CUDA)$(if $(filter 1,$(CUDA)), arch=$(GPU_ARCH) cudart=$(CUDART_LINK))
$(shell mkdir -p $(BUILD) && { [ "$$(cat $(KIND) 2>/dev/null)" = "$(KIND_NOW)" ] || echo "$(KIND_NOW)" > $(KIND); })

# gputui's objects, linked with jansson and zlib as $(1) says (static here,
# the distribution's shared libraries in the Debian package).
GPUTUI_OBJ := $(MAIN_OBJ) $(TOP_OBJ) $(CORE_OBJ) $(GPU_OBJ) $(UI_OBJ) $(CU_OBJ)
link-gputui = $(CC) $(CFLAGS) -o $@ $(filter %.o,$^) $(NCURSES_LIBS) $(1) $(CUDA_LIBS) -lm

$(BIN): $(GPUTUI_OBJ) $(KIND) $(filter $(BUILD)/%,$(CUDA_LIBS))
	$(call link-gputui,$(STATIC_LIBS))
ifeq ($(CUDA),1)
	@echo "gputui: $@ has kernels for $(addprefix sm_,$(GPU_ARCH)) and PTX for compute_$(LAST_ARCH) (nvcc $(NVCC_RELEASE))"
endif

$(MAIN_OBJ): src/main.c $(KIND)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(MAIN_DEFS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/src/ui/%.o: src/ui/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(NCURSES_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/src/gpu/%.o: src/gpu/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(GPU_DEFS) -I$(CUDA_INC) $(CFLAGS) -MMD -MP -c -o $@ $<
$(EXP_GPU_SRC:%.c=$(BUILD)/%.o): $(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(GPU_DEFS) -I$(CUDA_INC) $(CFLAGS) -MMD -MP -c -o $@ $<
$(BUILD)/src/gpu/cuda_backend.o: $(KIND)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/%.o: %.cu $(KIND)
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -MMD -MP -c -o $@ $<

# Cubins for every architecture built, without PTX; PTX for the first alone.
$(BUILD)/jit/memory.fatbin: kernels/memory.cu include/gputui/kernels.h include/gputui/base/pattern.h include/gputui/kernels_launch.cuh $(KIND)
	@mkdir -p $(@D)
	$(NVCC) -std=c++17 -Iinclude -O3 $(foreach a,$(GPU_ARCH),-gencode=arch=compute_$(a),code=sm_$(a)) -fatbin -o $@ $<

$(BUILD)/jit/memory.ptx: kernels/memory.cu include/gputui/kernels.h include/gputui/base/pattern.h include/gputui/kernels_launch.cuh $(KIND)
	@mkdir -p $(@D)
	$(NVCC) -std=c++17 -Iinclude -O3 -arch=compute_$(firstword $(GPU_ARCH)) -ptx -o $@ $<

# Each image as an 8-byte aligned array; the PTX ends in a NUL.
$(BUILD)/jit/images.c: $(BUILD)/jit/memory.fatbin $(BUILD)/jit/memory.ptx scripts/embed.sh
	scripts/embed.sh gt_jit_cubin $(BUILD)/jit/memory.fatbin gt_jit_ptx $(BUILD)/jit/memory.ptx >$@.tmp && mv $@.tmp $@

$(BUILD)/jit/images.o: $(BUILD)/jit/images.c
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/san/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -O1 $(SAN) -MMD -MP -c -o $@ $<

$(BUILD)/san/test_%: tests/unit/test_%.c $(SAN_CORE)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CMOCKA_CFLAGS) -Itests/unit $(CFLAGS) -O1 $(SAN) -o $@ $^ $(CMOCKA_LIBS) $(STATIC_LIBS) -lm

# The soak's harness, run on a fake back-end (make soak runs it on the GPU).
$(BUILD)/san/test_soak: $(BUILD)/san/tests/tools/soak_run.o
$(BUILD)/tsan/test_soak: $(BUILD)/tsan/tests/tools/soak_run.o

# The portability layer's POSIX fallbacks alone, run on this system too.
$(BUILD)/san/port_posix.o: src/core/base/port.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -DGT_PORT_POSIX $(CFLAGS) -O1 $(SAN) -MMD -MP -c -o $@ $<

$(BUILD)/san/test_port_posix: tests/unit/test_port.c $(BUILD)/san/port_posix.o
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CMOCKA_CFLAGS) -DGT_PORT_POSIX -Itests/unit $(CFLAGS) -O1 $(SAN) -o $@ $^ $(CMOCKA_LIBS) -lm

$(BUILD)/tsan/src/ui/%.o: src/ui/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(NCURSES_CFLAGS) $(CFLAGS) -O1 $(TSAN) -MMD -MP -c -o $@ $<

$(BUILD)/tsan/src/gpu/%.o: src/gpu/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(GPU_DEFS) -I$(CUDA_INC) $(CFLAGS) -O1 $(TSAN) -MMD -MP -c -o $@ $<
$(EXP_GPU_SRC:%.c=$(BUILD)/tsan/%.o): $(BUILD)/tsan/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(GPU_DEFS) -I$(CUDA_INC) $(CFLAGS) -O1 $(TSAN) -MMD -MP -c -o $@ $<

$(BUILD)/tsan/src/main.o: src/main.c $(KIND)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(MAIN_DEFS) $(CFLAGS) -O1 $(TSAN) -MMD -MP -c -o $@ $<

$(BUILD)/tsan/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -O1 $(TSAN) -MMD -MP -c -o $@ $<

$(BUILD)/tsan/test_%: tests/unit/test_%.c $(TSAN_CORE)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CMOCKA_CFLAGS) -Itests/unit $(CFLAGS) -O1 $(TSAN) -o $@ $^ $(CMOCKA_LIBS) $(STATIC_LIBS) -lm

$(BUILD)/tsan/gputui: $(TSAN_ALL) $(CU_OBJ) $(KIND)
	$(CC) $(CFLAGS) $(TSAN) -o $@ $(filter %.o,$^) $(NCURSES_LIBS) $(STATIC_LIBS) $(CUDA_LIBS) -lm

test-tsan: deps-test $(TSAN_BIN) $(BUILD)/tsan/gputui
	@tests/tsan.sh $(BUILD)/tsan/gputui $(TSAN_BIN)

run: deps
	@$(MAKE) --no-print-directory -j$(NPROC) $(BIN)
	$(BIN)

# make test builds with every core by itself, then runs its suites at once.
NPROC    := $(shell nproc 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo 2)
test: deps-test
	@$(MAKE) --no-print-directory -j$(NPROC) test-build
	@TSAN_GPUTUI=$(BUILD)/tsan/gputui TSAN_UNITS="$(TSAN_BIN)" tests/run-all.sh $(BIN) $(UNIT_BIN)

# The e2e tests' stand-in driver (tests/e2e/driver.sh), for the GPU back-end.
FAKEDRIVER := $(if $(filter 1,$(CUDA)),$(BUILD)/fakedriver/libcuda.so.1)

test-build: $(BIN) $(UNIT_BIN) $(TSAN_BIN) $(BUILD)/tsan/gputui $(BUILD)/recplan \
            $(BUILD)/fakewriter $(FAKEDRIVER)

test-e2e: $(BIN) $(BUILD)/recplan $(BUILD)/fakewriter $(FAKEDRIVER)
	@tests/e2e/run.sh $(BIN)

# Every batch output of the bundled recordings against tests/golden/digests;
# golden-update rewrites them (in a commit that says why they changed).
test-golden: $(BIN)
	@tests/golden/run.sh $(BIN)
golden-update: $(BIN)
	@tests/golden/run.sh $(BIN) --update

test-layers: $(BIN)
	@python3 tests/layers.py $(BUILD)

# core/, ui/ and main.c are POSIX C: each compiles with
# -D_POSIX_C_SOURCE=200809L and no _GNU_SOURCE (port.c, which holds what
# Linux and macOS alone have, is the exception), with gcc and with clang.
PORTABLE_SRC := $(filter-out src/core/base/port.c,$(CORE_SRC) $(UI_SRC)) src/main.c $(TOP_SRC)
PORTABLE_CCS ?= gcc clang
check-portable:
	@for c in $(PORTABLE_CCS); do \
	  command -v $$c >/dev/null || { echo "check-portable: $$c not found" >&2; exit 1; }; \
	  w="-Wall -Wextra -Wshadow -Wno-missing-field-initializers -Werror"; \
	  $$c -Werror -Wno-format-truncation -x c -c -o /dev/null /dev/null 2>/dev/null && \
	    w="$$w -Wno-format-truncation"; \
	  for f in $(PORTABLE_SRC); do \
	    $$c -std=c11 $$w -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc \
	      $(filter-out -D%,$(NCURSES_CFLAGS)) $(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null) \
	      -DGT_WITH_CUDA=0 -DGT_GPU_ARCH='""' -fsyntax-only $$f || exit 1; \
	  done; \
	  echo "check-portable: the $(words $(PORTABLE_SRC)) files of core/, ui/ and main.c are POSIX C with $$c"; \
	done

# The host code of src/gpu/ against every toolkit's headers from the
# package registry, and the choice of architectures (scripts/check-cuda.sh).
check-cuda:
	@CC="$(CC)" CPPFLAGS="$(CPPFLAGS)" BUILD="$(BUILD)" scripts/check-cuda.sh

# aarch64 (Jetson, Grace): the viewer and the unit tests with Debian's
# cross compiler, the tests run under qemu-user, the viewer's reports
# compared with this build's (scripts/cross-aarch64.sh).
check-aarch64: $(BIN)
	@JOBS=$(NPROC) scripts/cross-aarch64.sh $(BIN)

# The architectures this build targets, on one line (the viewer: none).
print-gpu-arch:
	@echo "$(or $(GPU_ARCH),none)"

# The GPU suite, memcheck, the soak, the bench and new recordings need the
# GPU back-end; a viewer build says so.
ifeq ($(CUDA),1)
test-gpu: $(BIN) $(BUILD)/test_unwind $(BUILD)/refprobe nocode
	@NOCODE=$(BUILD)/nocode/gputui tests/gpu/run.sh $(BIN) $(BUILD)/test_unwind $(BUILD)/refprobe

# gputui with kernels for the newest architecture alone: what a GPU it has
# no code for sees (the GPU suite runs it on an older one).
nocode:
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/nocode GPU_ARCH=$(LAST_ARCH) all

test-gpu-memcheck: $(BIN) $(BUILD)/test_unwind
	@tests/gpu/memcheck.sh $(BIN) $(BUILD)/test_unwind

# make soak (GPU): 1000 changes through the engine, every value of every
# choice among them; nothing left behind (device memory, locked and pinned
# host memory, descriptors, child processes, the persisting-L2 limit).
# SOAK_CHANGES, SOAK_SEED. Second processes run $(BIN).
$(BUILD)/soak: tests/gpu/soak.c tests/tools/soak_run.c $(CORE_OBJ) $(GPU_OBJ) $(CU_OBJ)
	$(CC) $(CPPFLAGS) -I$(CUDA_INC) $(CFLAGS) -o $@ $^ $(STATIC_LIBS) $(CUDA_LIBS) -lm

soak: $(BUILD)/soak $(BIN)
	@$(BUILD)/soak $(or $(SOAK_CHANGES),1000) $(or $(SOAK_SEED),1) $(BIN)

$(BUILD)/test_unwind: tests/gpu/test_unwind.c tests/gpu/test_verify.c tests/gpu/test_verify_async.c $(CORE_OBJ) $(GPU_OBJ) $(CU_OBJ)
	$(CC) $(CPPFLAGS) -I$(CUDA_INC) $(CFLAGS) -o $@ $^ $(STATIC_LIBS) $(CUDA_LIBS) -lm

# Reference timings beside gputui's in the same run (GPU suite, make bench).
$(BUILD)/refprobe: tests/gpu/refprobe.cu tests/gpu/refprobe_memory.cu tests/gpu/refprobe_load.cu \
                   tests/gpu/refprobe_warp.cu tests/gpu/refprobe_pool.cu tests/gpu/refprobe_onchip.cu \
                   tests/gpu/refprobe_async.cu \
                   tests/gpu/refprobe_vmm.cu tests/gpu/refprobe_vmm_share.cu \
                   tests/gpu/refprobe.h tests/gpu/refprobe_cu.h tests/gpu/refprobe_timer.cuh
	@mkdir -p $(@D)
	$(NVCC) -O2 -std=c++17 $(GENCODE) -o $@ $(filter %.cu,$^) -L$(CUDA_HOME)/lib64/stubs -lcuda

bench: $(BIN) $(BUILD)/refprobe
	@scripts/bench.sh $(BIN) $(BUILD)/refprobe

# Needs a GPU: records this GPU into share/gputui/MODEL.gtr.gz (see the
# script for recording in parts under a time limit).
recordings: $(BIN) $(BUILD)/recplan
	@scripts/make-recordings.sh $(BIN) $(BUILD)/recplan share/gputui
else
test-gpu test-gpu-memcheck soak bench recordings nocode $(BUILD)/soak $(BUILD)/test_unwind $(BUILD)/refprobe:
	@echo "gputui: 'make $@' needs the GPU back-end, and this is the replay viewer ($(VIEWER_WHY))" >&2; exit 2
endif

# What the bundled recordings must hold (make recordings, and the e2e check).
$(BUILD)/recplan: tests/tools/recplan.c tests/tools/recplan_lessons.c tests/tools/recplan_plans.c $(CORE_OBJ)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(STATIC_LIBS) -lm

# A teacher's gputui --record on a fake back-end, for the tests of --follow.
$(BUILD)/fakewriter: tests/tools/fakewriter.c $(CORE_OBJ)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(STATIC_LIBS) -lm

ifneq ($(CUDART_SO),)
$(BUILD)/$(notdir $(CUDART_SO)): $(CUDART_SO)
	@mkdir -p $(@D)
	cp $< $@
$(BUILD)/soak $(BUILD)/test_unwind: $(BUILD)/$(notdir $(CUDART_SO))
endif

# A stand-in NVIDIA driver older than the build, for the e2e tests of what
# gputui says then (tests/e2e/driver.sh): one library, under both names.
$(BUILD)/fakedriver/libcuda.so.1: tests/tools/fakedriver.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -shared -fPIC -o $@ $<
	cp $@ $(@D)/libnvidia-ml.so.1

# libFuzzer on the recording reader, what gputui writes of a recording, the
# command line and the lesson files (clang); FUZZ_TIME seconds each.
$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(CORE_SRC)
	@mkdir -p $(@D)
	clang $(CPPFLAGS) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -pthread -o $@ $^ \
	  $(STATIC_LIBS) -lm

fuzz: $(BUILD)/fuzz_record $(BUILD)/fuzz_report $(BUILD)/fuzz_cli $(BUILD)/fuzz_lesson
	@scripts/fuzz.sh $(BUILD)/fuzz_record tests/fuzz/gtr.dict
	@scripts/fuzz.sh $(BUILD)/fuzz_report tests/fuzz/gtr.dict
	@scripts/fuzz.sh $(BUILD)/fuzz_cli tests/fuzz/cli.dict
	@scripts/fuzz.sh $(BUILD)/fuzz_lesson tests/fuzz/lesson.dict

# Without root: make install PREFIX=$HOME/.local. gputui finds its
# recordings and lessons at BIN/../share/gputui, wherever that is.
install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/gputui
	install -m 644 man/gputui.1 $(DESTDIR)$(PREFIX)/share/man/man1/gputui.1
	install -d $(DESTDIR)$(PREFIX)/share/gputui
	install -m 644 share/gputui/*.gtr.gz share/gputui/inspect.json $(DESTDIR)$(PREFIX)/share/gputui/
	install -d $(DESTDIR)$(PREFIX)/share/gputui/lessons
	install -m 644 share/gputui/lessons/*.json $(DESTDIR)$(PREFIX)/share/gputui/lessons/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/gputui $(DESTDIR)$(PREFIX)/share/man/man1/gputui.1
	rm -rf $(DESTDIR)$(PREFIX)/share/gputui

# A Debian package (scripts/deb.sh): the objects of $(BIN) linked against
# the distribution's jansson and zlib; GPU_ARCH chooses the architectures.
$(BUILD)/deb/gputui: $(GPUTUI_OBJ) $(KIND) $(filter $(BUILD)/%,$(CUDA_LIBS))
	@mkdir -p $(@D)
	$(call link-gputui,-ljansson -lz)

deb: $(BUILD)/deb/gputui
	@scripts/deb.sh $(VERSION) $(BUILD)/deb/gputui $(BUILD)/deb

# EasyBuild as an HPC centre runs it: make dist's tarball through
# scripts/packages/gputui.eb into PREFIX, then its module loaded.
easybuild:
	@scripts/packages/easybuild.sh $(or $(EB_PREFIX),$(BUILD)/easybuild) $(VERSION)

# The sources, recordings and lessons in one file, without build output: it
# builds and tests with the README's two commands, with or without CUDA.
dist:
	@scripts/dist.sh $(VERSION)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
