// Linked into every executable of a sanitizer build (-DTLMCRAFT_SANITIZE=ON) only.
//
// Debian's libsystemc 2.3.4 tells AddressSanitizer about its coroutine stack switches when
// it runs under ASan (weak __sanitizer_start_switch_fiber references), but not correctly:
// switching back to the main stack it passes no bounds (nullptr, 0), and a thread that
// ends returns to the main stack without telling ASan at all. ASan then keeps the wrong
// stack bounds: the next exception on the main stack cannot unpoison it ("ASan is ignoring
// requested __asan_handle_no_return") and later frames meet stale redzones, reported as
// stack-buffer-overflows that are not there (docs/reliability.md). These definitions come
// before ASan's in symbol lookup (the executable is searched first): they pass the
// thread's own stack bounds where SystemC passes none, and before anything is thrown on
// the thread's own stack they tell ASan that is the stack in use.
#include <dlfcn.h>
#include <pthread.h>

#include <cstddef>
#include <cstdlib>

namespace {

using StartSwitch = void (*)(void**, const void*, size_t);
using FinishSwitch = void (*)(void*, const void**, size_t*);
using NoReturn = void (*)();

template <typename F>
F asan_function(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

struct Stack {
  const char* bottom = nullptr;
  size_t size = 0;
};

// The stack the calling thread started on (not a SystemC coroutine's).
const Stack& thread_stack() {
  thread_local Stack stack = [] {
    Stack s;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return s;
    void* bottom = nullptr;
    if (pthread_attr_getstack(&attr, &bottom, &s.size) == 0) s.bottom = static_cast<const char*>(bottom);
    pthread_attr_destroy(&attr);
    return s;
  }();
  return stack;
}

bool on_thread_stack() {
  const Stack& s = thread_stack();
  const char here = 0;
  return s.bottom != nullptr && &here >= s.bottom && &here < s.bottom + s.size;
}

// Tells ASan that the stack in use is the thread's own, when it is: its bounds become
// right even where SystemC switched back without saying so.
void use_thread_stack_if_on_it() {
  static const auto start = asan_function<StartSwitch>("__sanitizer_start_switch_fiber");
  static const auto finish = asan_function<FinishSwitch>("__sanitizer_finish_switch_fiber");
  if (!start || !finish || !on_thread_stack()) return;
  void* fake_stack = nullptr;
  start(&fake_stack, thread_stack().bottom, thread_stack().size);
  finish(fake_stack, nullptr, nullptr);
}

// LeakSanitizer's exit check scans each thread's stack by ASan's bounds. Left at a
// coroutine's stack, which the deleted simulation context has unmapped, the scan faults
// ("Tracer caught signal 11", LeakSanitizer's fatal error) after a test has passed. This
// handler is registered after ASan's own (a constructor runs after ASan's init), so it
// runs before the check.
[[gnu::constructor]] void restore_thread_stack_before_leak_check() {
  std::atexit([] { use_thread_stack_if_on_it(); });
}

}  // namespace

extern "C" void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, size_t size) {
  static const auto real = asan_function<StartSwitch>("__sanitizer_start_switch_fiber");
  if (bottom == nullptr && size == 0) {  // SystemC returning to the thread's own stack
    bottom = thread_stack().bottom;
    size = thread_stack().size;
  }
  if (real) real(fake_stack_save, bottom, size);
}

extern "C" void __asan_handle_no_return() {
  static const auto real = asan_function<NoReturn>("__asan_handle_no_return");
  use_thread_stack_if_on_it();  // before anything is thrown on it
  if (real) real();
}
