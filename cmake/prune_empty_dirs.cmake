# prune_empty_dirs(ROOT): removes the folders below ROOT that hold no file, deepest first.
# install(DIRECTORY ... EXCLUDE) leaves one for every source folder that held only code.
function(prune_empty_dirs root)
  file(GLOB_RECURSE entries LIST_DIRECTORIES true "${root}/*")
  list(SORT entries ORDER DESCENDING)  # a folder sorts after everything inside it
  foreach(entry ${entries})
    if(IS_DIRECTORY "${entry}" AND NOT IS_SYMLINK "${entry}")
      file(GLOB children "${entry}/*" "${entry}/.*")
      if(NOT children)
        file(REMOVE_RECURSE "${entry}")
      endif()
    endif()
  endforeach()
endfunction()
