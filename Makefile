# gputui - GNU Make, non-recursive.
#   make            build build/gputui
#   make run        build and start the TUI
#   make test       unit tests (ASan+UBSan, then ThreadSanitizer), the structure
#                   (tests/layers.py) and end-to-end tests; no GPU needed
#   make test-e2e   end-to-end tests only
#   make test-layers the folders' rules and no files that call each other
#   make test-tsan  unit tests and the replay TUI under ThreadSanitizer
#   make test-gpu   GPU suite (needs a CUDA GPU); make test-gpu-memcheck
#   make bench      measurement fidelity and responsiveness table (GPU)
#   make soak       1000 random changes, nothing leaked (GPU)
#   make install PREFIX=/usr/local
# Variables: GPU_ARCH="75 80 86 89 90 100 120" (PTX for the last), WERROR=1.

CC       ?= cc
NVCC     ?= $(CUDA_HOME)/bin/nvcc
CUDA_HOME ?= /usr/local/cuda
PREFIX   ?= /usr/local
BUILD    ?= build
GPU_ARCH ?= 75 80 86 89 90 100 120
PKG_CONFIG ?= pkg-config

LAST_ARCH := $(lastword $(GPU_ARCH))
GENCODE  := $(foreach a,$(GPU_ARCH),-gencode=arch=compute_$(a),code=sm_$(a)) \
            -gencode=arch=compute_$(LAST_ARCH),code=compute_$(LAST_ARCH)

WARN     := -Wall -Wextra -Wshadow -Wno-missing-field-initializers -Wno-format-truncation
ifeq ($(WERROR),1)
WARN     += -Werror
endif
CPPFLAGS += -Iinclude -Isrc -D_FILE_OFFSET_BITS=64
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 $(WARN) -pthread
NCURSES_CFLAGS := $(shell $(PKG_CONFIG) --cflags ncursesw 2>/dev/null)
NCURSES_LIBS   := $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null)
# jansson, zlib and cudart are linked statically: the binary needs none on the
# target machine; the CUDA driver and NVML are loaded at run time.
STATIC_LIBS    := -Wl,-Bstatic -ljansson -lz -Wl,-Bdynamic
CUDA_LIBS      := -L$(CUDA_HOME)/lib64 -lcudart_static -ldl -lrt -lpthread
NVCCFLAGS ?= -O3
NVCCFLAGS += -std=c++17 -Iinclude $(GENCODE) -Xcompiler -Wall

CORE_SRC := $(wildcard src/core/*/*.c)
GPU_SRC  := $(wildcard src/gpu/*.c)
UI_SRC   := $(wildcard src/ui/*.c)
CU_SRC   := $(wildcard kernels/*.cu)

CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o)
GPU_OBJ  := $(GPU_SRC:%.c=$(BUILD)/%.o)
UI_OBJ   := $(UI_SRC:%.c=$(BUILD)/%.o)
CU_OBJ   := $(CU_SRC:%.cu=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/src/main.o
BIN      := $(BUILD)/gputui

# Unit tests: core/ only, built with AddressSanitizer and UBSan.
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/san/%)
SAN_CORE := $(CORE_SRC:%.c=$(BUILD)/san/%.o)

# ThreadSanitizer: the unit tests, and gputui itself for the replay TUI
# (the worker thread, the sample queue and the UI consumer); make test-tsan.
TSAN      := -fsanitize=thread -fno-omit-frame-pointer -Wno-tsan
TSAN_CORE := $(CORE_SRC:%.c=$(BUILD)/tsan/%.o)
TSAN_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tsan/%)
TSAN_ALL  := $(TSAN_CORE) $(GPU_SRC:%.c=$(BUILD)/tsan/%.o) $(UI_SRC:%.c=$(BUILD)/tsan/%.o) \
             $(BUILD)/tsan/src/main.o

.SECONDARY:
.PHONY: all run test test-tsan test-e2e test-layers test-gpu soak test-gpu-memcheck bench recordings fuzz deps \
        deps-test install uninstall clean
all: $(BIN)

deps:
	@scripts/deps.sh build
deps-test:
	@scripts/deps.sh test

$(BIN): $(MAIN_OBJ) $(CORE_OBJ) $(GPU_OBJ) $(UI_OBJ) $(CU_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(NCURSES_LIBS) $(STATIC_LIBS) $(CUDA_LIBS) -lstdc++ -lm

$(BUILD)/src/ui/%.o: src/ui/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(NCURSES_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/src/gpu/%.o: src/gpu/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -I$(CUDA_HOME)/include $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/kernels/%.o: kernels/%.cu
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/san/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -O1 $(SAN) -MMD -MP -c -o $@ $<

$(BUILD)/san/test_%: tests/unit/test_%.c $(SAN_CORE)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests/unit $(CFLAGS) -O1 $(SAN) -o $@ $^ -lcmocka $(STATIC_LIBS) -lm

$(BUILD)/tsan/src/ui/%.o: src/ui/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(NCURSES_CFLAGS) $(CFLAGS) -O1 $(TSAN) -MMD -MP -c -o $@ $<

$(BUILD)/tsan/src/gpu/%.o: src/gpu/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -I$(CUDA_HOME)/include $(CFLAGS) -O1 $(TSAN) -MMD -MP -c -o $@ $<

$(BUILD)/tsan/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -O1 $(TSAN) -MMD -MP -c -o $@ $<

$(BUILD)/tsan/test_%: tests/unit/test_%.c $(TSAN_CORE)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests/unit $(CFLAGS) -O1 $(TSAN) -o $@ $^ -lcmocka $(STATIC_LIBS) -lm

$(BUILD)/tsan/gputui: $(TSAN_ALL) $(CU_OBJ)
	$(CC) $(CFLAGS) $(TSAN) -o $@ $^ $(NCURSES_LIBS) $(STATIC_LIBS) $(CUDA_LIBS) -lstdc++ -lm

test-tsan: deps-test $(TSAN_BIN) $(BUILD)/tsan/gputui
	@tests/tsan.sh $(BUILD)/tsan/gputui $(TSAN_BIN)

run: deps $(BIN)
	$(BIN)

test: deps-test $(BIN) $(UNIT_BIN) $(TSAN_BIN) $(BUILD)/tsan/gputui
	@TSAN_GPUTUI=$(BUILD)/tsan/gputui TSAN_UNITS="$(TSAN_BIN)" tests/run-all.sh $(BIN) $(UNIT_BIN)

test-e2e: $(BIN)
	@tests/e2e/run.sh $(BIN)

test-layers: $(BIN)
	@python3 tests/layers.py $(BUILD)

test-gpu: $(BIN) $(BUILD)/test_unwind $(BUILD)/refprobe
	@tests/gpu/run.sh $(BIN) $(BUILD)/test_unwind $(BUILD)/refprobe

test-gpu-memcheck: $(BIN) $(BUILD)/test_unwind
	@tests/gpu/memcheck.sh $(BIN) $(BUILD)/test_unwind

# make soak (GPU): 1000 random valid changes through the engine; nothing
# leaked (device memory, locked and pinned host memory, descriptors, the
# persisting-L2 limit). SOAK_CHANGES, SOAK_SEED.
$(BUILD)/soak: tests/gpu/soak.c $(CORE_OBJ) $(GPU_OBJ) $(CU_OBJ)
	$(CC) $(CPPFLAGS) -I$(CUDA_HOME)/include $(CFLAGS) -o $@ $^ $(STATIC_LIBS) $(CUDA_LIBS) -lstdc++ -lm

soak: $(BUILD)/soak
	@$(BUILD)/soak $(or $(SOAK_CHANGES),1000) $(or $(SOAK_SEED),1)

$(BUILD)/test_unwind: tests/gpu/test_unwind.c $(CORE_OBJ) $(GPU_OBJ) $(CU_OBJ)
	$(CC) $(CPPFLAGS) -I$(CUDA_HOME)/include $(CFLAGS) -o $@ $^ $(STATIC_LIBS) $(CUDA_LIBS) -lstdc++ -lm

# Reference timings beside gputui's in the same run (GPU suite, make bench).
$(BUILD)/refprobe: tests/gpu/refprobe.cu
	@mkdir -p $(@D)
	$(NVCC) -O2 -std=c++17 $(GENCODE) -o $@ $<

# What the bundled recordings must hold (make recordings, and the e2e check).
$(BUILD)/recplan: tests/tools/recplan.c $(CORE_OBJ)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(STATIC_LIBS) -lm

bench: $(BIN) $(BUILD)/refprobe
	@scripts/bench.sh $(BIN) $(BUILD)/refprobe

# libFuzzer on the recording reader, the command line and the lesson files (clang);
# FUZZ_TIME seconds each.
$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(CORE_SRC)
	@mkdir -p $(@D)
	clang $(CPPFLAGS) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -pthread -o $@ $^ \
	  $(STATIC_LIBS) -lm

fuzz: $(BUILD)/fuzz_record $(BUILD)/fuzz_cli $(BUILD)/fuzz_lesson
	@scripts/fuzz.sh $(BUILD)/fuzz_record tests/fuzz/gtr.dict
	@scripts/fuzz.sh $(BUILD)/fuzz_cli tests/fuzz/cli.dict
	@scripts/fuzz.sh $(BUILD)/fuzz_lesson tests/fuzz/lesson.dict

# Needs a GPU: records this GPU into share/gputui/MODEL.gtr.gz (see the
# script for recording in parts under a time limit).
recordings: $(BIN) $(BUILD)/recplan
	@scripts/make-recordings.sh $(BIN) $(BUILD)/recplan share/gputui

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/gputui
	install -m 644 man/gputui.1 $(DESTDIR)$(PREFIX)/share/man/man1/gputui.1
	install -d $(DESTDIR)$(PREFIX)/share/gputui
	install -m 644 share/gputui/*.gtr.gz $(DESTDIR)$(PREFIX)/share/gputui/
	install -d $(DESTDIR)$(PREFIX)/share/gputui/lessons
	install -m 644 share/gputui/lessons/*.json $(DESTDIR)$(PREFIX)/share/gputui/lessons/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/gputui $(DESTDIR)$(PREFIX)/share/man/man1/gputui.1
	rm -rf $(DESTDIR)$(PREFIX)/share/gputui

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
